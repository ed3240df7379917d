/**
 * The cite operation (docs/cite.md, docs/contract.md section 7): one verbatim quote of a document
 * becomes the ref citing exactly it. `sourcecheck cite --json` prints what this returns, and the
 * `cite` tools (MCP, VS Code) return the same object; documents come from the front end.
 */
import { type CiteCandidate, citeQuote } from "../core/cite";
import { didYouMean, nearestPaths } from "../core/nearestPaths";
import type { NextStep } from "../core/nextStep";
import { normalizeRefPath } from "../core/refPath";
import type { SpanWarning } from "../core/refWarnings";
import { type DocumentFailure, isDocumentFailure, namesNoFile, type SessionDocument } from "../core/session";
import type { Ref } from "../core/types";

export interface CiteRequest {
    path: string;
    quote: string;
}

export interface DocumentCapabilities {
    /** A document under the root (path safety applied), as the front end sees it. */
    document(path: string): SessionDocument | DocumentFailure;
    /** Every file under the root, for "did you mean" after a path that names none. */
    files(): Iterable<string>;
}

export interface CiteOutput {
    ref: Ref;
    text: string;
    warnings?: SpanWarning[];
}

export interface CiteFailure {
    error: { code: string; message: string; lines?: number[]; next?: NextStep };
    /** With `quote-not-found`: the near match the quote probably meant, never certain. */
    candidates?: CiteCandidate[];
}

export type CiteOutcome =
    | { ok: true; output: CiteOutput }
    /** `badInput`: the document itself cannot be had (exit 2), not an uncitable quote (exit 1). */
    | { ok: false; failure: CiteFailure; badInput: boolean };

export function cite(request: CiteRequest, capabilities: DocumentCapabilities): CiteOutcome {
    const found = documentFor(request.path, capabilities);
    if ("error" in found) return { ok: false, failure: withNext(found, request.path), badInput: true };
    const result = citeQuote(found, request.quote);
    if (!result.ok) {
        const { code, message, lines } = result.error;
        const next = nextAfterUncited(code, found.path, lines, result.candidates, message);
        const error = { code, message, ...(lines.length > 0 ? { lines } : {}), ...(next ? { next } : {}) };
        return {
            ok: false,
            failure: result.candidates ? { error, candidates: result.candidates } : { error },
            badInput: false,
        };
    }
    const output: CiteOutput = { ref: result.ref, text: result.text };
    if (result.warnings) output.warnings = result.warnings;
    return { ok: true, output };
}

/**
 * What to do after a quote could not be cited, as data (docs/contract.md, "Next steps"): choose the
 * near match offered, quote again (longer, when the quote occurs several times), or fix the path.
 */
export function nextAfterUncited(
    code: string,
    path: string,
    lines: readonly number[] = [],
    candidates: readonly CiteCandidate[] = [],
    message = "",
): NextStep | undefined {
    if (code === "quote-not-found" && candidates.length > 0)
        return { action: "choose-candidate", path, line: candidates[0].ref.start.line, candidates: candidates.length };
    if (code === "quote-not-found" || code === "self-citation") return { action: "cite-again", path };
    if (code === "quote-ambiguous")
        return lines.length > 0 ? { action: "cite-again", path, line: lines[0] } : { action: "cite-again", path };
    if (code === "unknown-path" || namesNoFile({ code, message })) return { action: "fix-path", path };
    return undefined;
}

function withNext(failure: CiteFailure, path: string): CiteFailure {
    const next = nextAfterUncited(failure.error.code, path, [], [], failure.error.message);
    return next ? { ...failure, error: { ...failure.error, next } } : failure;
}

/**
 * The document a ref path names (normalised as refs are written: `./a.md` -> `a.md`), or why not,
 * with the existing paths closest to a missing one.
 */
export function documentFor(path: string, capabilities: DocumentCapabilities): SessionDocument | CiteFailure {
    const verdict = normalizeRefPath(path);
    if (!verdict.ok) {
        const code = verdict.code === "invalid-path" ? "invalid-arguments" : verdict.code;
        return { error: { code, message: verdict.message } };
    }
    const entry = capabilities.document(verdict.path);
    if (!isDocumentFailure(entry)) return entry;
    return { error: { code: entry.code, message: withNearestPaths(entry, verdict.path, capabilities.files) } };
}

/** A missing file's message, with the existing paths closest to the one given. */
export function withNearestPaths(failure: DocumentFailure, path: string, files: () => Iterable<string>): string {
    return namesNoFile(failure) ? failure.message + didYouMean(nearestPaths(path, files())) : failure.message;
}
