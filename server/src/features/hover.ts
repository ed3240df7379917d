/**
 * Hover on any part of a ref: the resolved text in a code block, its location, and polarity and
 * confidence for sources; for a broken ref, its errors and the text of the lines it names. On a
 * claim: the whole annotation with its verdict (docs/verdicts.md), the claim and every source.
 * Annotations and sources are numbered from 1, as everything a person reads. Written in the editor's
 * language (`t`, messages.ts; English by default), problems by their code's templates.
 */
import { type Hover, MarkupKind, type Position, type Range } from "vscode-languageserver-protocol";
import { ordinal, pointerForPeople } from "../../../shared/numbering";
import { type DiffPiece, type TextChangedWarning, wordDiff } from "../core/lock";
import { isDocumentFailure } from "../core/session";
import { visible } from "../core/visible";
import type { AnnotationFile, RefSite, SiteHit } from "../workspace/annotationFile";
import { problemDiagnostics } from "./diagnostics";
import type { FeatureWorkspace } from "./featureWorkspace";
import { codeBlock, describeRange, oneLine, shorten } from "./format";
import { EDITOR_TEXTS, ENGLISH, problemMessage, type Translate, verdictText } from "./messages";
import { locateSpan, offsetAt, rangeOfSpan } from "./positions";

const MAX_HOVER_CHARS = 800;
const MAX_LINE_CHARS = 400;

/** Hovers per file version and ref, until the file's results change (its stamp). */
const cache = new WeakMap<AnnotationFile, { stamp: number; byRef: Map<string, Hover | null> }>();

export function hover(
    workspace: FeatureWorkspace,
    file: AnnotationFile,
    position: Position,
    t: Translate = ENGLISH,
): Hover | null {
    const hit = file.hitAt(offsetAt(file, position));
    if (!hit) return null;
    let entry = cache.get(file);
    if (!entry || entry.stamp !== file.stamp) {
        entry = { stamp: file.stamp, byRef: new Map() };
        cache.set(file, entry);
    }
    // The editor shows the messages of the diagnostics under the cursor in the same hover: say each once.
    const shownHere = new Set(
        problemDiagnostics(workspace, file)
            .filter(({ diagnostic }) => contains(diagnostic.range, position))
            .map(({ diagnostic }) => diagnostic.message),
    );
    const key = [hit.refPointer, ...shownHere].join("\u0000");
    let result = entry.byRef.get(key);
    if (result === undefined) {
        result = describeHit({ workspace, file, shownHere, t }, hit);
        entry.byRef.set(key, result);
    }
    return result;
}

function contains(range: Range, position: Position): boolean {
    const after = (a: Position, b: Position) => a.line > b.line || (a.line === b.line && a.character >= b.character);
    return after(position, range.start) && after(range.end, position);
}

/** What every part of one hover needs: the file, the (English) messages the editor shows with it, the language. */
interface HoverContext {
    workspace: FeatureWorkspace;
    file: AnnotationFile;
    shownHere: ReadonlySet<string>;
    t: Translate;
}

/** A problem as a hover line; its message left out when the editor shows it in the same hover already. */
function problemLine({ shownHere, t }: HoverContext, problem: { code: string; message: string }): string {
    return shownHere.has(problem.message)
        ? `- \`${problem.code}\` ${t(EDITOR_TEXTS.problemAbove, {})}`
        : `- \`${problem.code}\`: ${problemMessage(t, problem.code, problem.message)}`;
}

function describeHit(context: HoverContext, hit: SiteHit): Hover | null {
    const { file, t } = context;
    const range = rangeOfSpan(file, file.spanOf(hit.refPointer));
    if (!hit.site) {
        const problems = file.problems.filter(
            (p) => p.pointer === hit.refPointer || p.pointer.startsWith(`${hit.refPointer}/`),
        );
        if (problems.length === 0) return null;
        const lines = problems.map((p) => problemLine(context, p));
        const title = t(EDITOR_TEXTS.cannotBeRead, {});
        return {
            contents: { kind: MarkupKind.Markdown, value: `**${title}**\n\n${lines.join("\n")}` },
            range,
        };
    }
    const site = hit.site;
    const sections =
        site.role === "claim"
            ? [
                  `**${t(EDITOR_TEXTS.annotation, { number: ordinal(site.annotation) })}** · ${verdictText(t, file.verdictOf(site.annotation))}`,
                  ...file.sitesOf(site.annotation).map((s) => describeSite(context, s)),
                  ...missingSources(context, site.annotation),
              ]
            : [describeSite(context, site)];
    return { contents: { kind: MarkupKind.Markdown, value: sections.join("\n\n---\n\n") }, range };
}

/** A person's name for a ref of an annotation: numbered from 1, as everything a person reads. */
export function roleTitle(role: "claim" | number, t: Translate = ENGLISH): string {
    return role === "claim" ? t(EDITOR_TEXTS.claim, {}) : t(EDITOR_TEXTS.source, { number: ordinal(role) });
}

/** "supports" or "refutes" in words; anything else as it is. */
function polarityText(t: Translate, polarity: string): string {
    return polarity === "supports" || polarity === "refutes" ? t(EDITOR_TEXTS[polarity], {}) : polarity;
}

function describeSite(context: HoverContext, site: RefSite): string {
    const { workspace, file, t } = context;
    const title =
        site.role === "claim"
            ? `**${roleTitle("claim", t)}**`
            : `**${roleTitle(site.role, t)}** · ${polarityText(t, String(site.polarity))} · ${t(EDITOR_TEXTS.confidence, { confidence: String(site.confidence) })}`;
    const resolution = site.resolution;
    if (!resolution.valid) {
        const errors = resolution.errors.map((e) => problemLine(context, e)).join("\n");
        const broken = t(EDITOR_TEXTS.doesNotResolve, { path: `\`${site.ref.path}\`` });
        return [`${title} · ${broken}\n\n${errors}`, ...namedLines(context, site)].join("\n\n");
    }
    const where = describeRange(resolution.path, resolution.range);
    const location = locateSpan(workspace, file, resolution.path, resolution.range);
    const link = location
        ? `[${where}](${location.uri}#L${location.range.start.line + 1},${location.range.start.character + 1})`
        : `\`${where}\``;
    const text =
        resolution.text.length === 0 ? t(EDITOR_TEXTS.emptySpan, {}) : shorten(resolution.text, MAX_HOVER_CHARS);
    const drift = file.driftOf(site);
    return [`${title} · ${link}\n\n${codeBlock(text)}`, ...(drift ? [describeDrift(drift, t)] : [])].join("\n\n");
}

/**
 * A `text-changed` ref (docs/lock.md, "In the editor"): the locked and the current text, and the words
 * that changed. Locked text is data: the texts are in code blocks, the diff line escaped as Markdown.
 */
function describeDrift(drift: TextChangedWarning, t: Translate): string {
    const parts = [
        `**${t(EDITOR_TEXTS.changedSinceLocked, {})}**`,
        `${t(EDITOR_TEXTS.locked, {})}\n\n${codeBlock(shorten(drift.lockedText, MAX_HOVER_CHARS))}`,
        `${t(EDITOR_TEXTS.now, {})}\n\n${codeBlock(shorten(drift.text, MAX_HOVER_CHARS))}`,
    ];
    const pieces = wordDiff(drift.lockedText, drift.text);
    if (pieces) parts.push(t(EDITOR_TEXTS.changedWords, { words: renderDiff(pieces) }));
    parts.push(t(EDITOR_TEXTS.driftFixes, {}));
    return parts.join("\n\n");
}

/** Removed words struck through, added words in bold, everything else as it reads; one line, escaped. */
export function renderDiff(pieces: DiffPiece[]): string {
    return pieces
        .map(({ op, text }, i) => {
            if (op === "same") return escapeMarkdown(oneLine(text, 200));
            const lead = text.match(/^\s*/)?.[0] ?? "";
            const trail = text.slice(lead.length).match(/\s*$/)?.[0] ?? "";
            const inner = text.slice(lead.length, text.length - trail.length);
            const shown = inner.length === 0 ? "␣" : escapeMarkdown(oneLine(inner, 200));
            const mark = op === "removed" ? "~~" : "**";
            // A replacement reads "~~old~~ **new**": a space between the struck and the added words.
            const gap = op === "added" && pieces[i - 1]?.op === "removed" && lead.length === 0 ? " " : "";
            return `${gap}${escapeMarkdown(lead)}${mark}${shown}${mark}${escapeMarkdown(trail)}`;
        })
        .join("")
        .replace(/\s+/g, " ");
}

/**
 * Text shown as Markdown without being read as Markdown or HTML: every ASCII punctuation character
 * backslash-escaped (CommonMark), after control, line-separator and bidi characters are written as
 * escapes (core/visible.ts).
 */
export function escapeMarkdown(text: string): string {
    return visible(text).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/** The text of the lines a broken ref names, so the author sees what its boundaries are looked for in. */
function namedLines({ file, t }: HoverContext, site: RefSite): string[] {
    const document = file.lookup.get(site.ref.path);
    if (!document || isDocumentFailure(document)) return [];
    const lines = [...new Set([site.ref.start.line, site.ref.end.line])];
    return lines
        .filter((line) => Number.isInteger(line) && document.lines.hasLine(line))
        .map(
            (line) =>
                `${t(EDITOR_TEXTS.lineOf, { line, path: `\`${site.ref.path}\`` })}\n\n${codeBlock(shorten(document.lines.line(line), MAX_LINE_CHARS))}`,
        );
}

/** Sources that failed the schema are not sites; say they exist rather than hiding them. */
function missingSources({ file, t }: HoverContext, annotation: number): string[] {
    const problems = file.problems.filter(
        (p) => p.annotation === annotation && p.role === undefined && p.pointer.includes("/sources"),
    );
    return problems.map((p) =>
        t(EDITOR_TEXTS.missingSource, {
            code: `\`${p.code}\``,
            pointer: `\`${p.pointer}\``,
            where: pointerForPeople(p.pointer),
            message: problemMessage(t, p.code, p.message),
        }),
    );
}
