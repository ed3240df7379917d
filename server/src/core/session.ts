import { LineIndex, normalizeLineEndings } from "./lines";
import { AmbiguityMemo } from "./occurrences";
import type { SourceDocument } from "./types";

/** A document of a session: immutable content and its line index, built on first use. */
export class SessionDocument {
    private index: LineIndex | undefined;

    constructor(
        readonly path: string,
        readonly content: string,
        /** The SHA-256 of `content` when the reader already knows it (hashed from the bytes it read). */
        readonly contentSha256?: string,
    ) {}

    get lines(): LineIndex {
        if (!this.index) this.index = new LineIndex(this.content);
        return this.index;
    }

    private memo: AmbiguityMemo | undefined;

    /** Ambiguous boundary strings of this content, counted once per line and string. */
    get ambiguities(): AmbiguityMemo {
        if (!this.memo) this.memo = new AmbiguityMemo();
        return this.memo;
    }
}

/** Why a document could not be had (the workspace layer says; the core only reports it). */
export interface DocumentFailure {
    code: "path-outside-root" | "unreadable-document";
    message: string;
}

/** What a path that names no file says, wherever documents are read (disk, the browser's client, a session). */
export function noFileMessage(path: string): string {
    return `no file ${JSON.stringify(path)} under the document root`;
}

/**
 * Whether a failure is a path that names no file (possibly behind a prefix such as "claim: "): the
 * failures "did you mean" and the `fix-path` next step are for.
 */
export function namesNoFile(failure: { code: string; message: string }): boolean {
    return failure.code === "unreadable-document" && /\bno file "/.test(failure.message);
}

/** Where refs find their documents: a session, or the workspace (files, open buffers). */
export interface DocumentLookup {
    get(path: string): SessionDocument | DocumentFailure | undefined;
}

export function isDocumentFailure(entry: SessionDocument | DocumentFailure | undefined): entry is DocumentFailure {
    return entry !== undefined && !(entry instanceof SessionDocument);
}

export class SourceCheckError extends Error {
    constructor(
        readonly code: string,
        message: string,
    ) {
        super(message);
        this.name = "SourceCheckError";
    }
}

/** An immutable set of documents with unique paths. */
export class Session implements DocumentLookup {
    private readonly byPath = new Map<string, SessionDocument>();

    constructor(documents: Iterable<SessionDocument>) {
        for (const document of documents) {
            if (this.byPath.has(document.path)) {
                throw new SourceCheckError(
                    "duplicate-path",
                    `two documents share the path ${JSON.stringify(document.path)}`,
                );
            }
            this.byPath.set(document.path, document);
        }
    }

    get(path: string): SessionDocument | undefined {
        return this.byPath.get(path);
    }

    get documents(): SessionDocument[] {
        return [...this.byPath.values()];
    }

    get paths(): string[] {
        return [...this.byPath.keys()];
    }
}

/**
 * evidex-compatible: a session from `{ path, content }` documents. Throws a SourceCheckError with
 * code `duplicate-path` or `cr-in-content`; use `normalizeLineEndings` on content first.
 */
export function buildSession(documents: readonly SourceDocument[]): Session {
    return new Session(
        documents.map((document) => {
            if (document.content.includes("\r")) {
                throw new SourceCheckError(
                    "cr-in-content",
                    `document ${JSON.stringify(document.path)} contains \\r: normalise line endings to LF first`,
                );
            }
            return new SessionDocument(document.path, document.content);
        }),
    );
}

/** A session from documents in any line-ending convention (the CLI's `session` command). */
export function buildNormalizedSession(documents: readonly SourceDocument[]): Session {
    return buildSession(documents.map((d) => ({ path: d.path, content: normalizeLineEndings(d.content) })));
}
