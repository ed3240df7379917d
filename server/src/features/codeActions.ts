/**
 * Code actions (README.md, "Repair"; the engine: docs/repair.md). Quick fixes for a broken ref are
 * the repair engine's candidates, each moving the whole ref (never one boundary into another broken
 * state): the certain candidate is the one preferred fix, the others are offered with the span they
 * give. Each SourceCheck diagnostic's menu also offers to apply every certain repair of the file,
 * which is what source.fixAll.sourcecheck does. A refactor rewrites a valid ref with readable unique
 * boundaries when they are shorter. Each edit replaces exactly the tokens it changes; each action
 * carries its data (what it fixes and how).
 */
import {
    type CodeAction,
    CodeActionKind,
    type CodeActionParams,
    type Diagnostic,
    type Range,
    type TextEdit,
} from "vscode-languageserver-protocol";
import { ACCEPT_CHANGED_TEXT_COMMAND } from "../../../shared/customProtocol";
import { baseNameOf, isCitationFileName } from "../../../shared/fileNames";
import { refForSpan } from "../core/author";
import type { Problem } from "../core/check";
import { isLockedText } from "../core/lock";
import {
    Corroboration,
    explainRepair,
    type RepairCandidate,
    type RepairDocuments,
    type RepairReason,
    repairSite,
} from "../core/repair";
import { isDocumentFailure, type SessionDocument } from "../core/session";
import type { Ref } from "../core/types";
import type { AnnotationFile, RefSite } from "../workspace/annotationFile";
import { sha256 } from "../workspace/sha256";
import { type AnnotationActionKind, annotationActions } from "./annotationActions";
import { problemDiagnostics } from "./diagnostics";
import type { FixingWorkspace } from "./featureWorkspace";
import { refEdits } from "./followEdits";
import { describeRange, oneLine } from "./format";
import { ACTION_TEXTS, ENGLISH, REPAIR_EVIDENCE, retellAs, type Translate } from "./messages";
import { offsetAt, rangeOfPointer } from "./positions";

export const FIX_ALL_KIND = "source.fixAll.sourcecheck";
export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite, FIX_ALL_KIND];
export const FIX_ALL_TITLE = ACTION_TEXTS.fixAll;
export const ACCEPT_TITLE = ACTION_TEXTS.accept;

/** What every action carries: the file version it was computed for and the fix itself. */
export interface CodeActionData {
    uri: string;
    version: number;
    kind: "repair" | "shorten" | "fixAll" | "accept" | "reanchor" | AnnotationActionKind;
    /** The ref's pointer ("" for a whole-file fix). */
    pointer: string;
    reason?: RepairReason;
    certain?: boolean;
    /** The ref after the fix. */
    ref?: Ref;
}

interface Fix {
    title: string;
    edits: TextEdit[];
    preferred: boolean;
    data: CodeActionData;
}

/**
 * The code actions under the range; their titles in the editor's language (`t`: docs/localization.md),
 * the repair's evidence, worded by the core, matched like the problems' messages.
 */
export function codeActions(
    workspace: FixingWorkspace,
    file: AnnotationFile,
    params: CodeActionParams,
    t: Translate = ENGLISH,
): CodeAction[] {
    const only = params.context.only;
    const wanted = (kind: string) => !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
    const actions: CodeAction[] = [];

    if (wanted(CodeActionKind.QuickFix)) {
        const touched = problemDiagnostics(workspace, file).filter(({ diagnostic }) =>
            intersects(diagnostic.range, params.range),
        );
        // One set of fixes per broken ref, attached to every diagnostic of it under the range.
        const bySite = new Map<RefSite, Diagnostic[]>();
        for (const { problem, diagnostic } of touched) {
            const site = siteOf(file, problem);
            if (!site) continue;
            const list = bySite.get(site) ?? [];
            list.push(matching(params.context.diagnostics, diagnostic));
            bySite.set(site, list);
        }
        for (const [site, diagnostics] of bySite) {
            for (const fix of repairFixes(workspace, file, site, t)) {
                actions.push(toAction(file, fix, CodeActionKind.QuickFix, diagnostics));
            }
        }
        // A ref whose cited text changed since it was locked: accept the new text, or go back to the old.
        const drifted = new Map<RefSite, Diagnostic[]>();
        for (const { problem, diagnostic } of touched) {
            if (problem.code !== "text-changed" || problem.annotation === undefined || problem.role === undefined)
                continue;
            const site = file.site(problem.annotation, problem.role);
            if (!site?.resolution.valid) continue;
            const list = drifted.get(site) ?? [];
            list.push(matching(params.context.diagnostics, diagnostic));
            drifted.set(site, list);
        }
        for (const [site, diagnostics] of drifted) actions.push(...lockActions(workspace, file, site, diagnostics, t));
        if (touched.length > 0) {
            const diagnostics = touched.map(({ diagnostic }) => matching(params.context.diagnostics, diagnostic));
            const fixAll = fixAllAction(workspace, file, t, CodeActionKind.QuickFix, diagnostics);
            if (fixAll) actions.push(fixAll);
        }
    }
    if (wanted(CodeActionKind.RefactorRewrite)) {
        const sites = sitesIn(file, params.range);
        for (const site of sites) {
            const fix = shortenFix(workspace, file, site, t);
            if (fix) actions.push(toAction(file, fix, CodeActionKind.RefactorRewrite));
        }
        // Editing the annotation itself, for the ref under the caret only (a wide selection would list many).
        if (sites.length === 1) actions.push(...annotationActions(file, sites[0], t));
    }
    // Source actions only when asked for (on save, or the Source Action menu), as VS Code expects.
    if (only && wanted(FIX_ALL_KIND)) {
        const fixAll = fixAllAction(workspace, file, t, FIX_ALL_KIND);
        if (fixAll) actions.push(fixAll);
    }
    return actions;
}

function siteOf(file: AnnotationFile, problem: Problem): RefSite | undefined {
    if (problem.annotation === undefined || problem.role === undefined) return undefined;
    const site = file.site(problem.annotation, problem.role);
    return site && !site.resolution.valid ? site : undefined;
}

/**
 * The refs a range touches. Code actions are asked on every cursor move: a caret or a selection
 * inside one ref is found through the parse tree, only a wider selection scans the refs.
 */
function sitesIn(file: AnnotationFile, range: Range): RefSite[] {
    const from = offsetAt(file, range.start);
    const to = offsetAt(file, range.end);
    const start = file.hitAt(from);
    const end = from === to ? start : file.hitAt(to);
    if (from === to || (start && end && start.refPointer === end.refPointer)) return start?.site ? [start.site] : [];
    return file.sites.filter((site) => intersects(rangeOfPointer(file, site.pointer), range));
}

/** Prefer the client's own diagnostic object (it matches it by identity), else ours. */
function matching(client: Diagnostic[], ours: Diagnostic): Diagnostic {
    return (
        client.find(
            (d) =>
                d.code === ours.code &&
                d.range.start.line === ours.range.start.line &&
                d.range.start.character === ours.range.start.character,
        ) ?? ours
    );
}

function toAction(file: AnnotationFile, fix: Fix, kind: string, diagnostics?: Diagnostic[]): CodeAction {
    return {
        title: fix.title,
        kind,
        diagnostics,
        isPreferred: fix.preferred || undefined,
        edit: { changes: { [file.uri]: fix.edits } },
        data: fix.data,
    };
}

/** Where the repair engine reads this file's documents, and which paths it may offer instead. */
function repairDocuments(workspace: FixingWorkspace, file: AnnotationFile): RepairDocuments {
    return {
        get: (path) => file.lookup.get(path),
        candidatePaths: () =>
            file.embedded
                ? (file.documents ?? []).map((d) => d.path)
                : file.root !== undefined
                  ? // Lock and annotation files hold citations, never a candidate (shared/fileNames.ts).
                    workspace.filesUnder(file.root).filter((path) => !isCitationFileName(baseNameOf(path)))
                  : [],
    };
}

/**
 * Candidates per broken ref, computed once per file state (code actions are asked on every caret
 * move); the refs around a ref may make its shift certain (core/repair/corroborate.ts).
 */
const repairCache = new WeakMap<
    AnnotationFile,
    {
        stamp: number;
        corroboration: Corroboration;
        index: Map<RefSite, number>;
        bySite: Map<RefSite, RepairCandidate[]>;
    }
>();

export function repairsOf(workspace: FixingWorkspace, file: AnnotationFile, site: RefSite): RepairCandidate[] {
    let cache = repairCache.get(file);
    if (!cache || cache.stamp !== file.stamp) {
        const documents = repairDocuments(workspace, file);
        const style = workspace.settings.boundaryStyle;
        // A ref never locked is presumed written against the document as it is: its only reading is
        // certain (docs/repair.md, "Evidence"), as in `sourcecheck repair`.
        const sites = file.sites.map((s) =>
            repairSite(s.ref, s.resolution.valid, documents, { style, unchanged: true }),
        );
        cache = {
            stamp: file.stamp,
            corroboration: new Corroboration(sites),
            index: new Map(file.sites.map((s, i) => [s, i])),
            bySite: new Map(),
        };
        repairCache.set(file, cache);
    }
    let candidates = cache.bySite.get(site);
    if (!candidates) {
        const index = cache.index.get(site);
        candidates = index === undefined || site.resolution.valid ? [] : cache.corroboration.candidates(index);
        cache.bySite.set(site, candidates);
    }
    return candidates;
}

/** The quick fixes of one broken ref: one per repair candidate, the certain one preferred. */
export function repairFixes(
    workspace: FixingWorkspace,
    file: AnnotationFile,
    site: RefSite,
    t: Translate = ENGLISH,
): Fix[] {
    const candidates = repairsOf(workspace, file, site);
    return candidates.map((candidate) => repairFix(file, site, candidate, candidates.length, t));
}

function repairFix(file: AnnotationFile, site: RefSite, candidate: RepairCandidate, count: number, t: Translate): Fix {
    const span = `${describeRange(candidate.ref.path, candidate.range)} "${oneLine(candidate.text, 60)}"`;
    const reason = t(ACTION_TEXTS[candidate.reason], {});
    // "one of several" only when there are several; a lone candidate is still only a guess.
    const doubt = count > 1 ? t(ACTION_TEXTS.oneOfCandidates, { count }) : t(ACTION_TEXTS.onlyCandidate, {});
    const evidence =
        candidate.evidence === undefined
            ? t(ACTION_TEXTS.certain, {})
            : retellAs(t, REPAIR_EVIDENCE, candidate.evidence);
    const title = candidate.certain
        ? t(ACTION_TEXTS.repair, { reason, evidence, span })
        : t(ACTION_TEXTS.reanchor, { span, reason, doubt });
    return {
        title,
        edits: refEdits(file, site, candidate.ref),
        preferred: candidate.certain,
        data: {
            uri: file.uri,
            version: file.version,
            kind: "repair",
            pointer: site.pointer,
            reason: candidate.reason,
            certain: candidate.certain,
            ref: { path: candidate.ref.path, start: candidate.ref.start, end: candidate.ref.end },
        },
    };
}

/**
 * The fixes of a `text-changed` ref (docs/lock.md, "In the editor"): "Accept the new text" runs the
 * client command that asks the server to lock it (a lock file is not an edit of this file); "Re-anchor
 * to the locked text" moves the ref to where the lock-anchored repair finds the locked text itself.
 */
function lockActions(
    workspace: FixingWorkspace,
    file: AnnotationFile,
    site: RefSite,
    diagnostics: Diagnostic[],
    t: Translate,
): CodeAction[] {
    const match = file.lockMatchOf(site);
    const accept = t(ACCEPT_TITLE, {});
    if (!match || !file.driftOf(site)) return [];
    const actions: CodeAction[] = [];
    const data = (kind: CodeActionData["kind"], ref?: Ref): CodeActionData => ({
        uri: file.uri,
        version: file.version,
        kind,
        pointer: site.pointer,
        ...(ref ? { ref } : {}),
    });
    if (workspace.settings.lockUpdate !== "never" && !file.embedded) {
        actions.push({
            title: accept,
            kind: CodeActionKind.QuickFix,
            diagnostics,
            command: {
                title: accept,
                command: ACCEPT_CHANGED_TEXT_COMMAND,
                arguments: [{ uri: file.uri, pointer: site.pointer }],
            },
            data: data("accept"),
        });
    }
    const found = explainRepair(site.ref, repairDocuments(workspace, file), {
        locked: match.entry,
        sha256,
        style: workspace.settings.boundaryStyle,
    }).candidates.find((c) => isLockedText(match.entry, c.text, sha256));
    if (found) {
        const { start, end } = found.range;
        const lines =
            start.line === end.line
                ? t(ACTION_TEXTS.line, { line: start.line })
                : t(ACTION_TEXTS.lines, { start: start.line, end: end.line });
        const title = t(found.certain ? ACTION_TEXTS.reanchorLocked : ACTION_TEXTS.reanchorLockedSeveral, { lines });
        actions.push(
            toAction(
                file,
                {
                    title,
                    edits: refEdits(file, site, found.ref),
                    preferred: found.certain,
                    data: data("reanchor", { path: found.ref.path, start: found.ref.start, end: found.ref.end }),
                },
                CodeActionKind.QuickFix,
                diagnostics,
            ),
        );
    }
    return actions;
}

function documentOf(file: AnnotationFile, site: RefSite): SessionDocument | undefined {
    const entry = file.lookup.get(site.ref.path);
    return entry && !isDocumentFailure(entry) ? entry : undefined;
}

/** A valid ref rewritten with readable unique boundaries, when those are shorter than the written ones. */
function shortenFix(workspace: FixingWorkspace, file: AnnotationFile, site: RefSite, t: Translate): Fix | undefined {
    const document = documentOf(file, site);
    const resolution = site.resolution;
    if (!document || !resolution.valid) return undefined;
    const attempt = refForSpan(document, resolution.range.start, resolution.range.end, {
        style: workspace.settings.boundaryStyle,
    });
    if (!attempt.ok) return undefined;
    const shorter: Ref = { ...site.ref, start: attempt.ref.start, end: attempt.ref.end };
    const length = (r: Ref) => r.start.str.length + r.end.str.length;
    if (length(shorter) >= length(site.ref)) return undefined;
    return {
        title: t(ACTION_TEXTS.shorten, {
            start: `"${oneLine(shorter.start.str, 30)}"`,
            end: `"${oneLine(shorter.end.str, 30)}"`,
        }),
        edits: refEdits(file, site, shorter),
        preferred: false,
        data: { uri: file.uri, version: file.version, kind: "shorten", pointer: site.pointer, ref: shorter },
    };
}

/**
 * Every certain repair of the file, one edit per changed token. Each certain candidate makes its
 * whole ref valid and edits only that ref's tokens, so applying them together breaks nothing.
 */
function fixAllAction(
    workspace: FixingWorkspace,
    file: AnnotationFile,
    t: Translate,
    kind: string,
    diagnostics?: Diagnostic[],
): CodeAction | undefined {
    const edits: TextEdit[] = [];
    let repaired = 0;
    const broken = file.sites.filter((site) => !site.resolution.valid);
    file.spansOf(broken.map((site) => site.pointer));
    for (const site of broken) {
        const certain = repairsOf(workspace, file, site).find((c) => c.certain);
        if (!certain) continue;
        edits.push(...refEdits(file, site, certain.ref));
        repaired++;
    }
    if (edits.length === 0) return undefined;
    return {
        title:
            kind !== FIX_ALL_KIND
                ? t(FIX_ALL_TITLE, {})
                : t(repaired === 1 ? ACTION_TEXTS.fixAllOne : ACTION_TEXTS.fixAllMany, { count: repaired }),
        kind,
        diagnostics,
        edit: { changes: { [file.uri]: edits } },
        data: { uri: file.uri, version: file.version, kind: "fixAll", pointer: "" } satisfies CodeActionData,
    };
}

function intersects(a: Range, b: Range): boolean {
    const before = (x: Range["start"], y: Range["start"]) =>
        x.line < y.line || (x.line === y.line && x.character < y.character);
    return !before(a.end, b.start) && !before(b.end, a.start);
}
