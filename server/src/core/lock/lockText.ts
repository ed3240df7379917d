/**
 * Lock one annotation file's text over its previous lock (docs/lock.md): what `sourcecheck lock`,
 * the MCP `lock` tool and the editor share. Pure: documents come from the lookup, the hash is given.
 */
import { checkInputSteps, runSteps } from "../check";
import { LineIndex } from "../lines";
import type { NextStep } from "../nextStep";
import { LocatedText, parseJsonText } from "../parse";
import type { DocumentLookup } from "../session";
import type { Ref, SchemaError } from "../types";
import { RecordingLookup } from "./basis";
import { serializeEntries, serializeLock } from "./file";
import { relock } from "./relock";
import { type LockRefSite, lockSites } from "./sites";
import type { LockFile, Sha256 } from "./types";

/** One ref that could not be locked, for people (line, column from 1) and machines (0-based indices, pointer). */
export interface NotLocked {
    annotation: number;
    role: "claim" | number;
    pointer: string;
    code: string;
    message: string;
    /** True when the lock keeps the ref's last known entry. */
    kept: boolean;
    line: number;
    column: number;
    /** What to do about it, as data (worded by each front end). */
    next: NextStep;
}

export type LockedText =
    | { schemaErrors: SchemaError[]; content?: undefined }
    | {
          schemaErrors?: undefined;
          content: string;
          lock: LockFile;
          locked: number;
          notLocked: NotLocked[];
          /** Refs whose locked text differed from their text now and were locked to it (accepted). */
          accepted: number;
      };

/**
 * Said of a ref whose cited text changed and was not accepted: the lock keeps the old text, and only
 * an explicit accept (`lock --accept`, the MCP tool's `accept: true`, the editor's Accept) replaces it
 * (docs/security.md, "The lock's trust model").
 */
export const CHANGED_NOT_ACCEPTED =
    "the cited text changed since it was locked; the lock keeps the locked text until the new text is accepted";

export function lockAnnotationText(
    text: string,
    annotationFileName: string,
    lookup: DocumentLookup,
    previous: LockFile | undefined,
    sha256: Sha256,
    /**
     * All, none, or the sites a predicate picks (the editor's accept: a ref and the refs identical to
     * it). None by default: a changed text is accepted only when asked (docs/lock.md, "Merging").
     */
    acceptChangedText: boolean | ((site: LockRefSite) => boolean) = false,
    /** The SHA-256 of `text` when the caller has it (hashed from the bytes it read: cheaper). */
    textSha256?: string,
): LockedText {
    return runSteps(
        lockAnnotationTextSteps(text, annotationFileName, lookup, previous, sha256, acceptChangedText, textSha256),
    );
}

/** `lockAnnotationText` as steps: the check of its refs yields after each annotation (core/check.ts). */
export function* lockAnnotationTextSteps(
    text: string,
    annotationFileName: string,
    lookup: DocumentLookup,
    previous: LockFile | undefined,
    sha256: Sha256,
    acceptChangedText: boolean | ((site: LockRefSite) => boolean) = false,
    textSha256?: string,
): Generator<void, LockedText, void> {
    const parsed = parseJsonText(text);
    const recording = new RecordingLookup(lookup);
    const checked = yield* checkInputSteps(parsed.value, recording, parsed.syntaxErrors, { keepEntries: false });
    if (checked.report.schemaErrors.length > 0) return { schemaErrors: checked.report.schemaErrors };
    const sites = lockSites(checked.annotations);
    const accept =
        typeof acceptChangedText === "function" ? (i: number) => acceptChangedText(sites[i]) : acceptChangedText;
    const result = relock(previous, annotationFileName, sites, checked.lookup, sha256, { acceptChangedText: accept });
    const notLocked: NotLocked[] = [];
    let located: LocatedText | undefined;
    let lines: LineIndex | undefined;
    let locked = 0;
    result.statuses.forEach((status, i) => {
        if (status === "locked") {
            locked++;
            return;
        }
        const site = sites[i];
        const error = site.resolution.valid ? undefined : site.resolution.errors[0];
        located ??= new LocatedText(text);
        lines ??= new LineIndex(text);
        const at = lines.positionAt(located.spanOf(site.pointer).offset);
        const code = error?.code ?? "text-changed";
        const kept = status === "kept" || status === "changed";
        notLocked.push({
            annotation: site.annotation,
            role: site.role,
            pointer: site.pointer,
            code,
            message: error?.message ?? CHANGED_NOT_ACCEPTED,
            kept,
            line: at.line,
            column: at.column + 1,
            next: nextStepFor(code, kept, site.ref),
        });
    });
    const lock = result.lock;
    const entries = serializeEntries(lock);
    // Every resolving ref locked to the text it resolves to now: the basis lets `check` trust that
    // while nothing changes. A changed text kept unaccepted would be drift the basis hides: none then.
    if (!result.statuses.includes("changed")) {
        lock.basis = {
            annotationFileSha256: textSha256 ?? sha256(text),
            entriesSha256: sha256(entries),
            documents: recording.documentHashes(sha256),
        };
    }
    return { content: serializeLock(lock, entries), lock, locked, notLocked, accepted: result.accepted };
}

/** What to do about a ref the lock could not follow (docs/contract.md, "Next steps"). */
function nextStepFor(code: string, kept: boolean, ref: Ref): NextStep {
    const at = { path: ref.path, line: ref.start.line };
    if (code === "text-changed") return { action: "accept-text", ...at };
    if (code === "unknown-path" || code === "unreadable-document" || code === "path-outside-root") {
        return { action: "fix-path", path: ref.path };
    }
    // The last locked entry is kept: repair looks for that text where it went.
    return kept ? { action: "re-anchor", ...at } : { action: "cite-again", ...at };
}

/**
 * How many refs `text` has when it has no schema error and every ref resolves; undefined otherwise
 * (as steps: the check yields after each annotation).
 * With a lock whose basis holds (basis.ts) this is all locking again would find: every ref locked to
 * the text its entry already holds, so the lock there is is the lock it would write.
 */
export function* refCountIfAllResolve(text: string, lookup: DocumentLookup): Generator<void, number | undefined, void> {
    const parsed = parseJsonText(text);
    const checked = yield* checkInputSteps(parsed.value, lookup, parsed.syntaxErrors, { keepEntries: false });
    if (checked.report.schemaErrors.length > 0) return undefined;
    const sites = lockSites(checked.annotations);
    return sites.every((site) => site.resolution.valid) ? sites.length : undefined;
}
