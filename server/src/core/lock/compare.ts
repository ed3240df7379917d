/**
 * `check` against a lock (docs/lock.md, "Drift"): a RefWarningSource that gives a resolving ref
 * `text-changed` when its text is not its locked text and, with `locked` (`check --locked`), makes
 * that and a ref the lock does not know (`unlocked`) errors. It also counts locked, changed and
 * unlocked refs for the editor's view.
 */

import { sameRef } from "../../../../shared/refModel";
import type { RefWarningSource } from "../refWarnings";
import { type RefResolution, resolveRef } from "../resolve";
import type { DocumentLookup } from "../session";
import type { Ref, RefWarning } from "../types";
import { driftOf, unlockedMessage } from "./drift";
import { type LockMatch, matchRefs } from "./match";
import type { LockFile, Sha256 } from "./types";
import { documentsAtBasis, trustedEntries } from "./verify";

export interface LockCounts {
    /** Refs that resolve to their locked text. */
    locked: number;
    /** Refs that resolve to other text than their locked text. */
    changed: number;
    /** Refs that resolve and have no entry. */
    unlocked: number;
}

export interface LockComparisonOptions {
    /** `check --locked`: drift and unlocked refs are errors. */
    locked: boolean;
    /** Shown in the `unlocked` message (undefined: the file has no lock). */
    lockFileName?: string;
    /**
     * Compare only refs into these documents; refs into any other are as locked. For a lock whose
     * basis holds but for these documents (basis.ts): the lock then holds only their entries.
     */
    comparedPaths?: ReadonlySet<string>;
    /** The documents as history holds them, where an entry's document changed since (verify.ts). */
    history?: DocumentLookup;
}

export class LockComparison implements RefWarningSource {
    readonly counts: LockCounts = { locked: 0, changed: 0, unlocked: 0 };
    private matches: (LockMatch | undefined)[] = [];
    private readonly indexOf = new Map<string, number>();
    private refs: Ref[] = [];
    /** The lock's entries that `start` found trustworthy. */
    private trusted: LockFile | undefined;
    /** Ref index -> the key of the untrusted entry that would have matched it. */
    private doubted = new Map<number, string>();

    constructor(
        private readonly lock: LockFile | undefined,
        private readonly sha256: Sha256,
        private readonly options: LockComparisonOptions,
    ) {}

    start(annotations: readonly unknown[], lookup: DocumentLookup): void {
        if (!this.lock) return;
        // An entry is trusted only once it agrees with itself and the document it names (verify.ts):
        // one that does not is as if the ref were never locked.
        const documentAt = documentsAtBasis([lookup, this.options.history], this.sha256);
        this.trusted = trustedEntries(this.lock, this.sha256, documentAt);
        this.refs = [];
        this.indexOf.clear();
        annotations.forEach((annotation, index) => {
            if (!isObject(annotation)) return;
            const claim = wellFormedRef(annotation.claim);
            if (claim) this.add(index, "claim", claim);
            if (Array.isArray(annotation.sources)) {
                annotation.sources.forEach((source, role) => {
                    const ref = wellFormedRef(source);
                    if (ref) this.add(index, role, ref);
                });
            }
        });
        const refs = this.refs;
        const resolutionOf = (i: number) => resolveRef(lookup, refs[i]);
        this.matches = matchRefs(this.trusted, refs, resolutionOf, this.sha256);
        this.doubted = new Map();
        if (this.trusted === this.lock) return;
        // Which refs an untrusted entry would have answered for: their message says why they count as unlocked.
        const trusted = this.trusted;
        matchRefs(this.lock, refs, resolutionOf, this.sha256).forEach((match, i) => {
            if (match && !this.matches[i] && !Object.hasOwn(trusted.entries, match.key)) this.doubted.set(i, match.key);
        });
    }

    warningsFor(
        annotation: number,
        role: "claim" | number,
        ref: Ref,
        resolution: RefResolution,
    ): RefWarning[] | undefined {
        if (!resolution.valid) return undefined;
        if (this.options.comparedPaths && !this.options.comparedPaths.has(ref.path)) {
            this.counts.locked++;
            return undefined;
        }
        const match = this.matchOf(annotation, role, ref, resolution);
        if (!match) {
            this.counts.unlocked++;
            if (!this.options.locked) return undefined;
            return [
                {
                    code: "unlocked",
                    severity: "error",
                    message: this.doubtedMessage(annotation, role) ?? unlockedMessage(this.options.lockFileName),
                    next: { action: "lock" },
                },
            ];
        }
        const drift = driftOf(match, resolution, this.sha256);
        if (!drift) {
            this.counts.locked++;
            return undefined;
        }
        this.counts.changed++;
        return [this.options.locked ? { ...drift, severity: "error" } : drift];
    }

    /** The entry a ref of the file has in the lock (how it was matched), without counting it. */
    matchOf(annotation: number, role: "claim" | number, ref: Ref, resolution: RefResolution): LockMatch | undefined {
        if (!this.trusted) return undefined;
        const index = this.indexOf.get(siteKey(annotation, role));
        if (index !== undefined && sameRef(this.refs[index], ref)) return this.matches[index];
        // A ref read differently than `start` read it (cannot happen for well-formed input): alone.
        return matchRefs(this.trusted, [ref], () => resolution, this.sha256)[0];
    }

    /** Why a ref whose entry was not trusted counts as unlocked; undefined for any other ref. */
    private doubtedMessage(annotation: number, role: "claim" | number): string | undefined {
        const index = this.indexOf.get(siteKey(annotation, role));
        const key = index === undefined ? undefined : this.doubted.get(index);
        return key === undefined
            ? undefined
            : `its lock entry ${JSON.stringify(key)} does not agree with the document it names, so it is not trusted: lock the ref again`;
    }

    private add(annotation: number, role: "claim" | number, ref: Ref): void {
        if (this.options.comparedPaths && !this.options.comparedPaths.has(ref.path)) return;
        this.indexOf.set(siteKey(annotation, role), this.refs.length);
        this.refs.push(ref);
    }
}

/**
 * `check` against a lock whose basis holds (basis.ts): the annotation file, every document and the
 * entries are as they were when locked, so every ref that resolves resolves to its locked text and has
 * an entry. The same verdicts and counts as a LockComparison on that lock, without reading an entry.
 */
export class UnchangedLock implements RefWarningSource {
    readonly counts: LockCounts = { locked: 0, changed: 0, unlocked: 0 };

    warningsFor(_annotation: number, _role: "claim" | number, _ref: Ref, resolution: RefResolution): undefined {
        if (resolution.valid) this.counts.locked++;
        return undefined;
    }
}

function siteKey(annotation: number, role: "claim" | number): string {
    return `${annotation}/${role}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

function wellFormedRef(value: unknown): Ref | undefined {
    if (!isObject(value) || typeof value.path !== "string") return undefined;
    const start = boundary(value.start);
    const end = boundary(value.end);
    return start && end ? { path: value.path, start, end } : undefined;
}

function boundary(value: unknown): Ref["start"] | undefined {
    if (!isObject(value)) return undefined;
    const { line, str } = value;
    return Number.isInteger(line) && (line as number) >= 1 && typeof str === "string" && str.length > 0
        ? { line: line as number, str }
        : undefined;
}
