/**
 * Citations from model APIs, in one shape (docs/import.md): what each provider's parser reads out of a
 * response (and the request that produced it), before any workspace file is looked at. Pure data: the
 * offsets of a claim are UTF-16 offsets into the answer as a reader sees it.
 */

export type Provider = "anthropic" | "openai" | "gemini" | "cohere";

export const PROVIDERS: readonly Provider[] = ["anthropic", "openai", "gemini", "cohere"];

/** A document the provider cited, as the response and request name it. */
export interface CitedDocument {
    /** The provider's own number for it (Anthropic `document_index`, Gemini's chunk index), for `--document N=PATH`. */
    index?: number;
    /** Every name it goes by (title, file name, id, URI), for `--document NAME=PATH` and matching by name. */
    names: string[];
    /** Its whole text, when the request carried it as plain text. */
    text?: string;
    /** Its content blocks' texts, when the request carried it as blocks (Anthropic custom content). */
    blocks?: string[];
}

/** One source of a citation: where its cited text lies, as far as the provider says. */
export type CitedSource =
    | {
          kind: "document";
          document: CitedDocument;
          /** The provider's cited text; undefined when it gives none (`no-source-text`). */
          text?: string;
          /** Offsets into the document's text the provider claims for `text` (units unknown: verified). */
          offsets?: { start: number; end: number };
          /** Content blocks start..end (exclusive) of the document, when cited by block. */
          blocks?: { start: number; end: number };
          confidence?: number;
          /** Why the cited text cannot be known, though the document is named (several chunks, say). */
          problem?: { reason: "no-source-text" | "text-ambiguous"; message: string };
      }
    /** A web page: never converted (its text is not in the workspace). */
    | { kind: "web"; url: string; title?: string }
    /** A source that carries no text at all (an OpenAI container file, a tool output). */
    | { kind: "opaque"; what: string };

/** A claim in the answer: [start, end) in UTF-16 units, or why the response's offsets cannot be used. */
export type CitedClaim = { start: number; end: number } | { problem: string };

export interface ImportedCitation {
    /** The provider's name for the citation's type (`char_location`, `url_citation`, ...). */
    type: string;
    claim: CitedClaim;
    sources: CitedSource[];
}

export interface ParsedResponse {
    provider: Provider;
    /** The response's text as a reader sees it. */
    answer: string;
    /** In the response's order; `citation` numbers count from 1 over this list. */
    citations: ImportedCitation[];
}

/** A response (or request) that is not what it claims to be: bad input, exit 2. */
export class ImportInputError extends Error {
    constructor(
        readonly code: "invalid-response" | "invalid-request" | "unknown-provider",
        message: string,
    ) {
        super(message);
        this.name = "ImportInputError";
    }
}

export function isImportInputError(value: unknown): value is ImportInputError {
    return value instanceof Error && value.name === "ImportInputError";
}
