/**
 * Results of one annotation file's last check, kept so the next check of an edited version costs
 * what changed (docs/architecture.md, "Edits cost what changed"): a ref's resolution is reused while
 * the ref reads the same (path, lines and strings: its text) and its document is the same version
 * (the same document object, or the same path and content); its `mid-word-boundary` finding is kept
 * with it. Everything else a check does (the schema, the order of problems, self-citation, a lock's
 * drift) runs as in a check from scratch, so the result is the same: the memo only answers
 * `resolveRef` and `midWordWarningOf` faster. Pure: documents come from the lookup the check is given.
 */
import { listExtents, type ParsedList, reparseEdited } from "./incrementalParse";
import { type ParsedText, parseJsonText } from "./parse";
import { type RefResolution, type ResolvedSpan, resolveEntry } from "./resolve";
import { type DocumentFailure, type DocumentLookup, isDocumentFailure, SessionDocument } from "./session";
import { type Text, textString } from "./textChunks";
import type { Ref } from "./types";

type Entry = SessionDocument | DocumentFailure | undefined;

interface Remembered {
    entry: Entry;
    resolution: RefResolution;
}

/** One check's view of the documents: each path looked up once, and whether it is the version remembered. */
interface Run {
    lookup: DocumentLookup;
    entries: Map<string, Entry>;
    /** Remembered entries (by identity): the document of this run they were compared with, and whether it is the same. */
    verdicts: Map<Entry, { now: Entry; same: boolean }>;
    kept: Map<string, Remembered>;
}

/** An annotation's findings, with the documents they were made against. */
interface Record {
    index: number;
    paths: string[];
    entries: Entry[];
    outcome: unknown;
}

export class CheckMemo {
    /** The last text parsed, to parse an edit of it by what changed; its list is scanned when first needed. */
    private parsed: ParsedList | { text: Text; value: unknown } | undefined;
    /** Per annotation value (the object the parse gave, kept by incrementalParse.ts): what the check found. */
    private records = new WeakMap<object, Record>();
    /** The last completed check's resolutions, by the ref's text. */
    private lastResolutions = new Map<string, Remembered>();
    private run: Run | undefined;
    /** `mid-word-boundary` of a resolution (null: none), computed once per resolution object. */
    private readonly midWords = new WeakMap<ResolvedSpan, unknown>();
    /** Refs resolved in the last check, and how many of them were answered from the memo (for tests and the bench). */
    readonly counts = { resolved: 0, reused: 0, annotationsReused: 0 };

    /** A check begins: refs are looked up in what the last one kept; only what this one uses is kept. */
    begin(lookup: DocumentLookup): void {
        this.run = { lookup, entries: new Map(), verdicts: new Map(), kept: new Map() };
        this.counts.resolved = 0;
        this.counts.reused = 0;
        this.counts.annotationsReused = 0;
    }

    /** The check is over: forget the refs it did not use (edited away, or into documents that changed). */
    end(): void {
        if (this.run) this.lastResolutions = this.run.kept;
        this.run = undefined;
    }

    /** `resolveRef(lookup, ref)`, answered from the last check when the ref and its document are unchanged. */
    resolve(lookup: DocumentLookup, ref: Ref): RefResolution {
        const run = this.run?.lookup === lookup ? this.run : undefined;
        if (!run) return resolveEntry(lookup.get(ref.path), ref);
        this.counts.resolved++;
        const entry = this.entryOf(run, ref.path);
        const key = refKey(ref);
        const kept = run.kept.get(key);
        if (kept) {
            this.counts.reused++;
            return kept.resolution;
        }
        const last = this.lastResolutions.get(key);
        if (last && this.sameDocument(run, last.entry, entry)) {
            this.counts.reused++;
            run.kept.set(key, { entry, resolution: last.resolution });
            return last.resolution;
        }
        const resolution = resolveEntry(entry, ref);
        run.kept.set(key, { entry, resolution });
        return resolution;
    }

    /**
     * Parse an annotation file's text: an edit inside one annotation of the last text parses that
     * annotation alone (core/incrementalParse.ts); any other text is parsed whole. An open buffer's
     * text comes in pieces (core/textChunks.ts), made one string only when it is parsed whole.
     */
    parse(text: Text): ParsedText {
        const parsed = this.parsed;
        const last = parsed && ("list" in parsed ? parsed : listExtents(parsed.text, parsed.value));
        const edited = last && reparseEdited(last, text);
        if (edited) {
            this.parsed = edited;
            return { value: edited.value, syntaxErrors: [], unlistedSyntaxErrors: 0 };
        }
        const whole = parseJsonText(textString(text));
        const valid = whole.syntaxErrors.length === 0 && whole.unlistedSyntaxErrors === 0;
        this.parsed = valid ? { text, value: whole.value } : undefined;
        return whole;
    }

    /** What the check found for this annotation value at this index, while its documents are unchanged. */
    remembered<T>(value: unknown, index: number): T | undefined {
        const run = this.run;
        if (!run || typeof value !== "object" || value === null) return undefined;
        const record = this.records.get(value);
        if (!record || record.index !== index) return undefined;
        for (let i = 0; i < record.paths.length; i++) {
            const now = this.entryOf(run, record.paths[i]);
            if (!this.sameDocument(run, record.entries[i], now)) return undefined;
            record.entries[i] = now;
        }
        this.counts.annotationsReused++;
        return record.outcome as T;
    }

    /** Remember what the check found for an annotation that passed the schema (its refs into `paths`). */
    remember<T>(value: unknown, index: number, paths: string[], outcome: T): void {
        const run = this.run;
        if (!run || typeof value !== "object" || value === null) return;
        this.records.set(value, { index, paths, entries: paths.map((path) => this.entryOf(run, path)), outcome });
    }

    /** A finding that depends only on a resolution (and the document it came from), computed once for it. */
    findingOf<T>(resolution: ResolvedSpan, compute: () => T | undefined): T | undefined {
        if (this.midWords.has(resolution)) return (this.midWords.get(resolution) ?? undefined) as T | undefined;
        const found = compute();
        this.midWords.set(resolution, found ?? null);
        return found;
    }

    private entryOf(run: Run, path: string): Entry {
        if (run.entries.has(path)) return run.entries.get(path);
        const entry = run.lookup.get(path);
        run.entries.set(path, entry);
        return entry;
    }

    /** The version a resolution was made against is the document now: the same object, or the same text. */
    private sameDocument(run: Run, then: Entry, now: Entry): boolean {
        if (then === now) return true;
        const known = run.verdicts.get(then);
        if (known && known.now === now) return known.same;
        const same = equivalent(then, now);
        run.verdicts.set(then, { now, same });
        return same;
    }
}

function equivalent(a: Entry, b: Entry): boolean {
    if (a === undefined || b === undefined) return a === b;
    if (isDocumentFailure(a) || isDocumentFailure(b)) {
        return isDocumentFailure(a) && isDocumentFailure(b) && a.code === b.code && a.message === b.message;
    }
    // An embedded session's document is made anew for each check; its content decides.
    return a instanceof SessionDocument && a.path === b.path && a.content === b.content;
}

/** The ref's text: what its resolution depends on besides the document. */
function refKey(ref: Ref): string {
    return `${ref.path}\u0000${ref.start.line}\u0000${ref.start.str}\u0000${ref.end.line}\u0000${ref.end.str}`;
}
