/**
 * One annotation file at one version: its text, its problems, and every ref in it ("sites")
 * with its resolution. Built once per version and shared by every feature, so hover, completion
 * and the rest never re-parse or re-check. When a cited document changes, only the refs into that
 * document are resolved again (`refresh`).
 */
import * as nodePath from "node:path";
import { getNodePath, type Node } from "jsonc-parser";
import type { ReportExitStatus } from "../../../shared/exitCodes";
import { type CheckedAnnotation, findingProblem, findingsOf, type Problem, resolutionProblems } from "../core/check";
import type { CheckMemo } from "../core/checkMemo";
import type { PointedDocument } from "../core/input";
import { locatePointers, type Span } from "../core/locate";
import { annotationLockSites, driftOf, LockComparison, type LockMatch, type TextChangedWarning } from "../core/lock";
import { LocatedText, parseJsonText } from "../core/parse";
import { spanWarningSource } from "../core/refWarnings";
import { type RefResolution, resolveRef } from "../core/resolve";
import type { DocumentLookup } from "../core/session";
import { type Text, textString } from "../core/textChunks";
import { isSchemaErrorCode, type Polarity, type Ref, type SourceRef } from "../core/types";
import { type Verdict, verdictOfPolarities } from "../core/verdict";
import { checkOperation } from "../operations/check";
import type { LockRead } from "./lockPaths";
import { sha256 } from "./sha256";

/** A ref of the file: the claim or a source of one annotation. */
export interface RefSite {
    annotation: number;
    role: "claim" | number;
    /** JSON pointer of the ref object. */
    pointer: string;
    ref: Ref;
    polarity?: Polarity;
    confidence?: number;
    resolution: RefResolution;
}

/** What the cursor is on inside a ref: the site and the JSON path below the ref object. */
export interface SiteHit {
    site?: RefSite;
    /** Pointer of the ref object even when the ref is too broken to be a site. */
    refPointer: string;
    /** Segments below the ref, e.g. ["start", "str"]; [] on the ref object itself. */
    field: (string | number)[];
    node: Node;
}

export interface FileSummary {
    validCount: number;
    invalidCount: number;
    schemaErrorCount: number;
    /** With a valid lock: resolving refs on their locked text, on other text, and without an entry. */
    lock?: { locked: number; changed: number; unlocked: number };
}

/** Stamps tell results apart: a new version, or new resolutions after a cited document changed. */
let nextStamp = 1;

export class AnnotationFile {
    /** Changes whenever the problems may have changed (pull diagnostics' resultId). */
    stamp = nextStamp++;
    /** The parsed JSON (recovered when broken); kept only when asked for (open buffers: completion reads it). */
    readonly value: unknown;
    /** Embedded session documents (input shapes 1 and 2); undefined in workspace mode. */
    readonly documents: PointedDocument[] | undefined;
    readonly lookup: DocumentLookup;
    readonly annotationCount: number;
    private readonly annotationsPointer: string;
    /**
     * Sites by annotation, then claim (slot 0) or source i (slot i + 1). A slot array and its sites are
     * never changed once made (`refresh` replaces them), so an annotation the check replayed shares
     * them with the file's last version (core/checkMemo.ts).
     */
    private readonly slots: RefSite[][] = [];
    private siteList: RefSite[] | undefined;
    private byPath: Map<string, RefSite[]> | undefined;
    private pathList: string[] | undefined;
    /** Problems not tied to one ref's resolution (schema, syntax, file shape). */
    private readonly fixedProblems: Problem[] = [];
    /**
     * The refs of the file's `unsourced` list that pass the schema (docs/contract.md, "Unsourced claims"),
     * each with its resolution's problems: resolved again by `refresh` as a claim is.
     */
    private readonly unsourced: { ref: Ref; pointer: string; problems: Problem[] }[] = [];
    private readonly siteProblems = new Map<RefSite, Problem[]>();
    private problemList: Problem[] | undefined;
    private locatedText: LocatedText | undefined;
    private readonly spans = new Map<string, Span>();
    private invalidCache: { stamp: number; invalid: Set<number> } | undefined;
    /** Compares refs with the lock beside the file, when there is a valid one. */
    private readonly lockComparison: LockComparison | undefined;
    /** Schema and syntax errors past the listed ones (core/check.ts): counted, not among `problems`. */
    readonly unlistedProblemCount: number;
    /** The file's exit status as `sourcecheck check` gives it (2 with an unusable lock beside it). */
    readonly exitCode: ReportExitStatus;
    /** Annotations failing the schema: broken, whether their errors were listed or not. */
    private readonly schemaFailed: number[] = [];
    /** What this check took from the last one (core/checkMemo.ts): annotations replayed, refs not resolved again. */
    readonly reused = { annotations: 0, refs: 0 };

    constructor(
        readonly uri: string,
        readonly version: number,
        /** The file's text: a buffer's pieces are made one string only when a feature reads `text`. */
        private readonly source: Text,
        /** Document root for workspace-mode refs; undefined when there is none (no folder). */
        readonly root: string | undefined,
        /** Where workspace-mode refs find their documents (files and open buffers under the root). */
        workspace: DocumentLookup,
        keepValue = true,
        /** The lock beside the file (docs/lock.md): drift is reported as `text-changed` warnings. */
        readonly lock?: LockRead,
        /** The resolutions of this file's last check, reused where nothing changed (core/checkMemo.ts). */
        memo?: CheckMemo,
    ) {
        // Only what the features use is kept: the check's report and per-annotation records would
        // double the memory of a large file for nothing.
        const parsed = memo ? memo.parse(source) : parseJsonText(textString(source));
        this.lockComparison = lock?.lock ? new LockComparison(lock.lock, sha256, { locked: false }) : undefined;
        // The one check (operations/check.ts), as the CLI and the tools run it; the lock's comparison
        // is kept here, for the features that show what each ref's lock entry says.
        const outcome = checkOperation(
            {
                value: parsed.value,
                keep: true,
                refsOnly: true,
                syntaxErrors: parsed.syntaxErrors,
                unlisted: parsed.unlistedSyntaxErrors,
            },
            {
                documents: workspace,
                lock: lock && { path: lock.path, error: lock.error, comparison: this.lockComparison },
                sha256,
                memo,
            },
        );
        const { result } = outcome;
        if (memo) {
            this.reused.annotations = memo.counts.annotationsReused;
            this.reused.refs = memo.counts.reused;
        }
        this.exitCode = outcome.exitCode;
        this.unlistedProblemCount = result.unlistedProblemCount;
        for (const checked of result.annotations) if (checked.schemaFailed) this.schemaFailed.push(checked.index);
        if (lock?.error) {
            // A lock that cannot be used is said, never silently ignored (docs/lock.md).
            this.fixedProblems.push({
                code: lock.error.code as Problem["code"],
                message: `${nodePath.basename(lock.path)}: ${lock.error.message}`,
                pointer: "",
            });
        }
        this.value = keepValue ? parsed.value : undefined;
        this.documents = result.parts.documents;
        this.lookup = result.lookup;
        this.annotationCount = result.parts.annotations.length;
        this.annotationsPointer = result.parts.annotationsPointer;
        // The sites are the lock's (core/lock/sites.ts), each source with its polarity and confidence;
        // an annotation the check replayed (the same record) keeps the sites it had.
        for (const checked of result.annotations) {
            let slots = memo ? slotsOfChecked.get(checked) : undefined;
            if (!slots) {
                slots = slotsOf(checked);
                if (memo) slotsOfChecked.set(checked, slots);
            }
            if (slots.length > 0) this.slots[checked.index] = slots;
        }
        const unsourcedAt = new Map<string, { ref: Ref; pointer: string; problems: Problem[] }>();
        for (const item of result.unsourced) {
            if (!item.ref) continue;
            const kept = { ref: item.ref, pointer: item.pointer, problems: [] };
            this.unsourced.push(kept);
            unsourcedAt.set(item.pointer, kept);
        }
        for (const problem of result.problems) {
            const site =
                problem.role !== undefined && problem.annotation !== undefined
                    ? this.site(problem.annotation, problem.role)
                    : undefined;
            const unsourced = site ? undefined : unsourcedAt.get(unsourcedPointer(problem));
            if (site) this.siteProblems.get(site)?.push(problem) ?? this.siteProblems.set(site, [problem]);
            else if (unsourced && !isSchemaErrorCode(problem.code)) unsourced.problems.push(problem);
            else this.fixedProblems.push(problem);
        }
    }

    /** The file's text as one string. */
    get text(): string {
        return textString(this.source);
    }

    /** Refs resolve against the file's own documents (input shapes 1 and 2). */
    get embedded(): boolean {
        return this.documents !== undefined;
    }

    /** The parse tree with offsets, built on first use (a clean file never needs it for diagnostics). */
    get located(): LocatedText {
        if (!this.locatedText) this.locatedText = new LocatedText(this.text);
        return this.locatedText;
    }

    /** The file's problems, those of the file as a whole first, then each ref's in file order (as a check finds them). */
    get problems(): Problem[] {
        if (!this.problemList) {
            const list = [...this.fixedProblems];
            for (const item of this.unsourced) list.push(...item.problems);
            if (this.siteProblems.size > 0) {
                for (const site of this.sites)
                    for (const problem of this.siteProblems.get(site) ?? []) list.push(problem);
            }
            this.problemList = list;
        }
        return this.problemList;
    }

    /** Every ref of the file, in file order (the claim of an annotation before its sources). */
    get sites(): readonly RefSite[] {
        if (!this.siteList) {
            const list: RefSite[] = [];
            for (const slots of this.slots) if (slots) for (const site of slots) if (site) list.push(site);
            this.siteList = list;
        }
        return this.siteList;
    }

    /** Workspace mode: ref path -> sites citing it. */
    get sitesByPath(): ReadonlyMap<string, readonly RefSite[]> {
        if (!this.byPath) {
            const byPath = new Map<string, RefSite[]>();
            if (!this.embedded) {
                for (const site of this.sites) {
                    const list = byPath.get(site.ref.path);
                    if (list) list.push(site);
                    else byPath.set(site.ref.path, [site]);
                }
            }
            this.byPath = byPath;
        }
        return this.byPath;
    }

    refPointer(annotation: number, role: "claim" | number): string {
        const base = `${this.annotationsPointer}/${annotation}`;
        return role === "claim" ? `${base}/claim` : `${base}/sources/${role}`;
    }

    site(annotation: number, role: "claim" | number): RefSite | undefined {
        return this.slots[annotation]?.[role === "claim" ? 0 : role + 1];
    }

    sitesOf(annotation: number): RefSite[] {
        return (this.slots[annotation] ?? []).filter((s): s is RefSite => s !== undefined);
    }

    /** Paths cited in workspace mode (embedded sessions depend on nothing outside the file). */
    citedPaths(): string[] {
        if (this.embedded) return [];
        // Asked after every check (the index of cited documents, the spans to redraw): a few paths,
        // found once per version without the map of every site. Unsourced refs cite their answer too.
        if (!this.pathList) {
            const paths = new Set<string>(this.byPath?.keys());
            if (!this.byPath)
                for (const slots of this.slots) if (slots) for (const site of slots) if (site) paths.add(site.ref.path);
            for (const item of this.unsourced) paths.add(item.ref.path);
            this.pathList = [...paths];
        }
        return [...this.pathList];
    }

    /**
     * Resolve again the refs citing these paths (their document changed). Work is proportional to
     * those refs. Returns true when any resolution changed.
     */
    refresh(paths: Iterable<string>): boolean {
        if (this.embedded) return false;
        let changed = false;
        const annotations = new Set<number>();
        const changedPaths = new Set(paths);
        /** The problems a replaced site had, by the site replacing it. */
        const before = new Map<RefSite, Problem[]>();
        for (const path of changedPaths) {
            for (const site of this.sitesByPath.get(path) ?? []) {
                const resolution = resolveRef(this.lookup, site.ref);
                if (!sameResolution(site.resolution, resolution)) changed = true;
                // A new site in a new slot array: the old ones may be shared with the file's last version.
                const replaced = { ...site, resolution };
                const slots = this.slots[site.annotation].slice();
                slots[site.role === "claim" ? 0 : site.role + 1] = replaced;
                this.slots[site.annotation] = slots;
                before.set(replaced, this.siteProblems.get(site) ?? []);
                this.siteProblems.delete(site);
                annotations.add(site.annotation);
            }
        }
        this.siteList = undefined;
        this.byPath = undefined;
        this.pathList = undefined;
        if (this.refreshUnsourced(changedPaths)) changed = true;
        // Findings look past the span (the words around it, the claim's span): every ref of those
        // annotations is judged again, as a check of the whole file would (core/check.ts).
        const span = spanWarningSource();
        span.start?.([], this.lookup);
        const sources = this.lockComparison ? [span, this.lockComparison] : [span];
        for (const annotation of annotations) {
            const claim = this.site(annotation, "claim")?.resolution;
            for (const site of this.sitesOf(annotation)) {
                const { ref, pointer, role, resolution } = site;
                const problems = resolutionProblems(resolution, ref, pointer, annotation, role);
                if (resolution.valid) {
                    const found = findingsOf(
                        sources,
                        annotation,
                        role,
                        ref,
                        resolution,
                        role === "claim" ? undefined : claim,
                    );
                    for (const warning of found ?? [])
                        problems.push(findingProblem(warning, pointer, annotation, role));
                }
                if (!sameProblems(before.get(site) ?? this.siteProblems.get(site) ?? [], problems)) changed = true;
                if (problems.length > 0) this.siteProblems.set(site, problems);
                else this.siteProblems.delete(site);
            }
        }
        if (changed) {
            this.problemList = undefined;
            this.stamp = nextStamp++;
        }
        return changed;
    }

    /** The unsourced refs citing these paths resolved again; true when their problems changed. */
    private refreshUnsourced(paths: ReadonlySet<string>): boolean {
        let changed = false;
        for (const item of this.unsourced) {
            if (!paths.has(item.ref.path)) continue;
            const problems = resolutionProblems(
                resolveRef(this.lookup, item.ref),
                item.ref,
                item.pointer,
                undefined,
                undefined,
            );
            if (!sameProblems(item.problems, problems)) changed = true;
            item.problems = problems;
        }
        return changed;
    }

    /** Indices of annotations with any problem (schema or resolution), cached per stamp. */
    invalidAnnotations(): Set<number> {
        if (!this.invalidCache || this.invalidCache.stamp !== this.stamp) {
            const invalid = new Set<number>(this.schemaFailed);
            for (const problem of this.problems) {
                // Warnings (a changed locked text, ...) leave the annotation valid.
                if (problem.annotation !== undefined && problem.severity === undefined) invalid.add(problem.annotation);
            }
            this.invalidCache = { stamp: this.stamp, invalid };
        }
        return this.invalidCache.invalid;
    }

    /** The annotation's verdict (docs/verdicts.md): broken when any of its parts has a problem. */
    verdictOf(annotation: number): Verdict {
        if (this.invalidAnnotations().has(annotation)) return "broken";
        return verdictOfPolarities(
            this.sitesOf(annotation)
                .filter((s) => s.role !== "claim")
                .map((s) => s.polarity),
        );
    }

    /**
     * Whether an annotation is a claim waiting for its sources: `"sources": []` (what *Cite Selection
     * as Claim* writes on purpose), its claim resolving, and nothing else wrong with it. Still a schema
     * error for the CLI; the editor shows it as an authoring state, not as broken (docs/verdicts.md).
     */
    awaitsSources(annotation: number): boolean {
        const sites = this.sitesOf(annotation);
        if (sites.length !== 1 || sites[0].role !== "claim" || !sites[0].resolution.valid) return false;
        const pointer = `${this.annotationsPointer}/${annotation}/sources`;
        const problems = this.problems.filter((p) => p.annotation === annotation && p.severity === undefined);
        if (problems.length !== 1 || problems[0].code !== "schema" || problems[0].pointer !== pointer) return false;
        const token = this.spanOf(pointer);
        return token !== undefined && /^\[\s*\]$/.test(this.text.slice(token.offset, token.offset + token.length));
    }

    summary(): FileSummary {
        const invalid = this.invalidAnnotations();
        const summary: FileSummary = {
            validCount: this.annotationCount - invalid.size,
            invalidCount: invalid.size,
            schemaErrorCount: this.problems.filter((p) => isSchemaErrorCode(p.code)).length + this.unlistedProblemCount,
        };
        if (this.lockComparison) {
            // Counted on request (the language status asks when a file is shown): one lookup per ref.
            const lock = { locked: 0, changed: 0, unlocked: 0 };
            for (const site of this.sites) {
                if (!site.resolution.valid) continue;
                if (!this.lockMatchOf(site)) lock.unlocked++;
                else if (this.driftOf(site)) lock.changed++;
                else lock.locked++;
            }
            summary.lock = lock;
        }
        return summary;
    }

    /** The ref (if any) under an offset of the file. */
    hitAt(offset: number): SiteHit | undefined {
        const root = this.located.root;
        if (!root) return undefined;
        const node = this.nodeAt(offset);
        if (!node) return undefined;
        const path = getNodePath(node);
        const base = this.annotationsPointer === "" ? 0 : 1;
        if (base === 1 && path[0] !== "annotations") return undefined;
        if (typeof path[base] !== "number") return undefined;
        const annotation = path[base] as number;
        let roleEnd: number;
        let role: "claim" | number;
        if (path[base + 1] === "claim") {
            role = "claim";
            roleEnd = base + 2;
        } else if (path[base + 1] === "sources" && typeof path[base + 2] === "number") {
            role = path[base + 2] as number;
            roleEnd = base + 3;
        } else {
            return undefined;
        }
        if (path.length < roleEnd) return undefined;
        const refPointer = this.refPointer(annotation, role);
        return { site: this.site(annotation, role), refPointer, field: path.slice(roleEnd), node };
    }

    /**
     * The innermost node at an offset (its right edge included, as jsonc-parser's
     * findNodeAtOffset), by binary search over each level's children: a file of 10,000
     * annotations costs a few dozen steps, not a scan.
     */
    nodeAt(offset: number): Node | undefined {
        let node = this.located.root;
        if (!node || !contains(node, offset)) return undefined;
        for (;;) {
            const children = node.children;
            if (!children || children.length === 0) return node;
            let low = 0;
            let high = children.length - 1;
            let found: Node | undefined;
            while (low <= high) {
                const mid = (low + high) >> 1;
                const child = children[mid];
                if (offset < child.offset) high = mid - 1;
                else if (offset > child.offset + child.length) low = mid + 1;
                else {
                    // Touching two siblings (right edge of one, left of the next): jsonc-parser takes the first.
                    found = child;
                    high = mid - 1;
                }
            }
            if (!found) return node;
            node = found;
        }
    }

    /**
     * Offset and length of the token a pointer names: remembered, else from the parse tree when one
     * exists (an open file that was hovered), else by a scan. Loops over many refs call `spansOf`
     * first, so a large file is scanned once and never gets a tree just for this.
     */
    spanOf(pointer: string): Span {
        const known = this.spans.get(pointer);
        if (known) return known;
        if (this.locatedText) return this.locatedText.spanOf(pointer);
        return this.spansOf([pointer])[0];
    }

    /** Spans of many pointers at once, in one scan when there is no tree; remembered. */
    spansOf(pointers: string[]): Span[] {
        if (!this.locatedText) {
            const missing = pointers.filter((p) => !this.spans.has(p));
            if (missing.length > 0) for (const [p, span] of locatePointers(this.text, missing)) this.spans.set(p, span);
            return pointers.map((p) => this.spans.get(p) as Span);
        }
        return pointers.map((p) => this.spanOf(p));
    }

    /** The lock entry of a ref (undefined without a valid lock, or when the lock does not know it). */
    lockMatchOf(site: RefSite): LockMatch | undefined {
        return this.lockComparison?.matchOf(site.annotation, site.role, site.ref, site.resolution);
    }

    /** The drift of a resolving ref from its locked text (the old and the new text), if any. */
    driftOf(site: RefSite): TextChangedWarning | undefined {
        return driftOf(this.lockMatchOf(site), site.resolution, sha256);
    }
}

/** The slot arrays of the annotations a check replayed: the same record gets the same sites. */
const slotsOfChecked = new WeakMap<CheckedAnnotation, RefSite[]>();

/** An annotation's sites in slots (claim at 0, source i at i + 1), each source with its polarity and confidence. */
function slotsOf(checked: CheckedAnnotation): RefSite[] {
    const slots: RefSite[] = [];
    for (const site of annotationLockSites(checked)) {
        if (site.role === "claim") slots[0] = site;
        else {
            const ref = site.ref as SourceRef;
            const { annotation, role, pointer, resolution } = site;
            slots[role + 1] = {
                annotation,
                role,
                pointer,
                ref,
                resolution,
                polarity: ref.polarity,
                confidence: ref.confidence,
            };
        }
    }
    return slots;
}

function contains(node: Node, offset: number): boolean {
    return offset >= node.offset && offset <= node.offset + node.length;
}

/** `/unsourced/N` of a problem on an unsourced ref (its pointer names a token under it); "" otherwise. */
function unsourcedPointer(problem: Problem): string {
    const match = problem.annotation === undefined ? /^\/unsourced\/\d+/.exec(problem.pointer) : null;
    return match ? match[0] : "";
}

function sameProblems(a: readonly Problem[], b: readonly Problem[]): boolean {
    return (
        a.length === b.length &&
        a.every(
            (p, i) =>
                p.code === b[i].code &&
                p.message === b[i].message &&
                p.severity === b[i].severity &&
                p.pointer === b[i].pointer,
        )
    );
}

function sameResolution(a: RefResolution, b: RefResolution): boolean {
    if (a.valid && b.valid) {
        return (
            a.text === b.text &&
            a.startOffset === b.startOffset &&
            a.endOffset === b.endOffset &&
            a.range.start.line === b.range.start.line &&
            a.range.end.line === b.range.end.line
        );
    }
    if (!a.valid && !b.valid) {
        return (
            a.errors.length === b.errors.length &&
            a.errors.every((e, i) => e.code === b.errors[i].code && e.message === b.errors[i].message)
        );
    }
    return false;
}

/** One ref of an annotation file that cites a document (what the index answers for a cited path). */
export interface Citation {
    file: AnnotationFile;
    site: RefSite;
}
