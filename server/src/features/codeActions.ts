/**
 * Code actions. Quick fixes for broken boundaries (one per ambiguous occurrence, "move to line N",
 * "replace with" a near match, a near file name for a missing document); a refactor shortening a
 * valid ref to its shortest unique boundaries; and source.fixAll.sourcecheck applying every fix
 * that is the only sensible one. Each edit replaces exactly the token it fixes; each action
 * carries its data (what it fixes and how).
 */
import {
    type CodeAction,
    CodeActionKind,
    type CodeActionParams,
    type Diagnostic,
    type Range,
    type TextEdit,
} from "vscode-languageserver";
import type { Problem } from "../core/check";
import { closestStrings } from "../core/editDistance";
import { ambiguityFixes, type BoundaryFix, relocationFixes, shortenedRef } from "../core/fixes";
import { isDocumentFailure, type SessionDocument } from "../core/session";
import type { AnnotationFile, RefSite } from "../workspace/annotationFile";
import type { WorkspaceIndex } from "../workspace/workspaceIndex";
import { problemDiagnostics } from "./diagnostics";
import { describeRange, oneLine } from "./format";
import { offsetAt, rangeOfPointer } from "./positions";

export const FIX_ALL_KIND = "source.fixAll.sourcecheck";
export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite, FIX_ALL_KIND];

/** What every action carries: the file version it was computed for and the fix itself. */
export interface CodeActionData {
    uri: string;
    version: number;
    kind: "extend" | "move" | "replace" | "path" | "shorten" | "fixAll";
    pointer: string;
    value?: string | number;
}

interface Fix {
    title: string;
    edits: TextEdit[];
    preferred: boolean;
    data: CodeActionData;
}

export function codeActions(workspace: WorkspaceIndex, file: AnnotationFile, params: CodeActionParams): CodeAction[] {
    const only = params.context.only;
    const wanted = (kind: string) => !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
    const actions: CodeAction[] = [];

    if (wanted(CodeActionKind.QuickFix)) {
        for (const { problem, diagnostic } of problemDiagnostics(workspace, file)) {
            if (!intersects(diagnostic.range, params.range)) continue;
            for (const fix of fixesFor(workspace, file, problem)) {
                actions.push(
                    toAction(file, fix, CodeActionKind.QuickFix, [matching(params.context.diagnostics, diagnostic)]),
                );
            }
        }
    }
    if (wanted(CodeActionKind.RefactorRewrite)) {
        for (const site of sitesIn(file, params.range)) {
            const fix = shortenFix(file, site);
            if (fix) actions.push(toAction(file, fix, CodeActionKind.RefactorRewrite));
        }
    }
    // Source actions only when asked for (on save, or the Source Action menu), as VS Code expects.
    if (only && wanted(FIX_ALL_KIND)) {
        const fixAll = fixAllAction(workspace, file);
        if (fixAll) actions.push(fixAll);
    }
    return actions;
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

function documentOf(file: AnnotationFile, site: RefSite): SessionDocument | undefined {
    const entry = file.lookup.get(site.ref.path);
    return entry && !isDocumentFailure(entry) ? entry : undefined;
}

/** The quick fixes of one problem. */
export function fixesFor(workspace: WorkspaceIndex, file: AnnotationFile, problem: Problem): Fix[] {
    if (problem.annotation === undefined || problem.role === undefined) return [];
    const site = file.site(problem.annotation, problem.role);
    if (!site) return [];
    if (problem.code === "unknown-path" || problem.code === "unreadable-document")
        return pathFixes(workspace, file, site);
    const boundary = problem.boundary;
    const document = documentOf(file, site);
    if (!boundary || !document) return [];
    let fixes: BoundaryFix[] = [];
    if (problem.code === "boundary-ambiguous") fixes = ambiguityFixes(document, site.ref, boundary);
    else if (problem.code === "boundary-not-found" || problem.code === "line-out-of-range") {
        fixes = relocationFixes(document, site.ref, boundary);
    }
    return fixes.map((fix) => boundaryFix(file, site, fix));
}

function boundaryFix(file: AnnotationFile, site: RefSite, fix: BoundaryFix): Fix {
    const field = fix.kind === "move" ? "line" : "str";
    const pointer = `${site.pointer}/${fix.boundary}/${field}`;
    const value = fix.kind === "move" ? (fix.line as number) : (fix.str as string);
    const outcome = fix.resolution.valid
        ? `span ${describeRange(fix.resolution.path, fix.resolution.range)} "${oneLine(fix.resolution.text, 50)}"`
        : // Every remaining error, not just the first: a fix that adds one (moving one boundary of a
          // ref may invert its lines) must say so before it is applied.
          `still broken: ${fix.resolution.errors.map((e) => e.message).join("; ") || "does not resolve"}`;
    const title =
        fix.kind === "move"
            ? `Move to line ${fix.line}: ${fix.boundary} "${oneLine(fix.ref[fix.boundary].str, 40)}" occurs there once (${outcome})`
            : fix.kind === "replace"
              ? `Replace with "${oneLine(value as string, 60)}" (${outcome})`
              : `Use "${oneLine(value as string, 60)}" for the ${fix.boundary} boundary (${outcome})`;
    return {
        title,
        edits: [{ range: rangeOfPointer(file, pointer), newText: JSON.stringify(value) }],
        preferred: fix.preferred,
        data: { uri: file.uri, version: file.version, kind: fix.kind, pointer, value },
    };
}

/** A missing document with a near namesake in the workspace (or the session): use that path. */
function pathFixes(workspace: WorkspaceIndex, file: AnnotationFile, site: RefSite): Fix[] {
    const candidates = file.embedded
        ? (file.documents ?? []).map((d) => d.path)
        : file.root !== undefined
          ? workspace.filesUnder(file.root)
          : [];
    const wanted = site.ref.path;
    const near = closestStrings(wanted, candidates, Math.max(2, Math.floor(wanted.length / 5))).slice(0, 3);
    const pointer = `${site.pointer}/path`;
    return near.map((path, index) => ({
        title: `Replace with "${path}"`,
        edits: [{ range: rangeOfPointer(file, pointer), newText: JSON.stringify(path) }],
        preferred: near.length === 1 && index === 0,
        data: { uri: file.uri, version: file.version, kind: "path", pointer, value: path },
    }));
}

function shortenFix(file: AnnotationFile, site: RefSite): Fix | undefined {
    const document = documentOf(file, site);
    if (!document || !site.resolution.valid) return undefined;
    const shorter = shortenedRef(document, site.ref);
    if (!shorter) return undefined;
    const edits: TextEdit[] = [];
    for (const boundary of ["start", "end"] as const) {
        if (shorter.ref[boundary].str === site.ref[boundary].str) continue;
        edits.push({
            range: rangeOfPointer(file, `${site.pointer}/${boundary}/str`),
            newText: JSON.stringify(shorter.ref[boundary].str),
        });
    }
    return {
        title: `Shorten to the shortest unique boundaries: "${oneLine(shorter.ref.start.str, 30)}" … "${oneLine(shorter.ref.end.str, 30)}"`,
        edits,
        preferred: false,
        data: { uri: file.uri, version: file.version, kind: "shorten", pointer: site.pointer },
    };
}

/** Every problem whose fix is unambiguous (preferred, or the only one), one edit per token. */
function fixAllAction(workspace: WorkspaceIndex, file: AnnotationFile): CodeAction | undefined {
    const edits: TextEdit[] = [];
    const touched = new Set<string>();
    for (const problem of file.problems) {
        const fixes = fixesFor(workspace, file, problem);
        const chosen =
            fixes.length === 1
                ? fixes[0]
                : fixes.filter((f) => f.preferred).length === 1
                  ? fixes.find((f) => f.preferred)
                  : undefined;
        if (!chosen) continue;
        for (const edit of chosen.edits) {
            const key = `${edit.range.start.line}:${edit.range.start.character}`;
            if (touched.has(key)) continue;
            touched.add(key);
            edits.push(edit);
        }
    }
    if (edits.length === 0) return undefined;
    return {
        title: `Fix all unambiguous SourceCheck problems (${edits.length} edit${edits.length === 1 ? "" : "s"})`,
        kind: FIX_ALL_KIND,
        edit: { changes: { [file.uri]: edits } },
        data: { uri: file.uri, version: file.version, kind: "fixAll", pointer: "" } satisfies CodeActionData,
    };
}

function intersects(a: Range, b: Range): boolean {
    const before = (x: Range["start"], y: Range["start"]) =>
        x.line < y.line || (x.line === y.line && x.character < y.character);
    return !before(a.end, b.start) && !before(b.end, a.start);
}
