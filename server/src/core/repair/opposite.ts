/**
 * What the sources of the other polarity in an annotation cite or cited (docs/security.md, "The
 * lock's trust model"). A repair never moves a `supports` ref onto a sentence a `refutes` ref of
 * the same annotation cites, nor the reverse, whatever its evidence and whether it is certain or
 * not: a lock entry edited to hold the refuting sentence's text would otherwise carry the supporting
 * ref onto it. "Cites or cited" is every reading there is of the other ref, broken or not:
 *   - where it resolves now;
 *   - where its locked text is now (its lock entry);
 *   - where its strings as written resolve on other lines (ordinary drift broke it too);
 *   - where the text it cited in the earlier version (history) is now;
 *   - where its own repair candidates would put it.
 */
import { placesOf } from "../placesIndex";
import { resolveInDocument } from "../resolve";
import { isDocumentFailure, type SessionDocument } from "../session";
import type { Range, Ref } from "../types";
import { findLockedText } from "./locked";
import type { LockedSpan, RepairCandidate, RepairDocuments, RepairOptions } from "./types";

/** One ref of an annotation as the opposite-polarity rule sees it. */
export interface PolarRef {
    annotation: number;
    /** `supports` or `refutes`; anything else (the claim, another polarity) has no opposite. */
    polarity: unknown;
    ref: Ref;
    /** Where it resolves now, when it does. */
    range?: Range;
    locked?: LockedSpan;
}

export interface CitedSpan {
    path: string;
    range: Range;
}

/** Places of the strings as written (per string) and of a cited text looked at, at most. */
const MAX_PLACES = 64;

/** The polarity a polarity is opposed to; undefined for everything but supports and refutes. */
export function oppositeOf(polarity: unknown): "supports" | "refutes" | undefined {
    return polarity === "supports" ? "refutes" : polarity === "refutes" ? "supports" : undefined;
}

/** Every span the other-polarity refs of `refs[index]`'s annotation cite or cited (see the file's comment). */
export function oppositeSpans(
    refs: readonly PolarRef[],
    index: number,
    documents: RepairDocuments,
    options: Pick<RepairOptions, "previous" | "sha256">,
    candidatesOf: (index: number) => readonly RepairCandidate[],
): CitedSpan[] {
    const self = refs[index];
    const opposite = oppositeOf(self.polarity);
    if (!opposite) return [];
    const spans: CitedSpan[] = [];
    for (const [other, site] of refs.entries()) {
        if (site.annotation !== self.annotation || site.polarity !== opposite) continue;
        const { ref } = site;
        if (site.range) spans.push({ path: ref.path, range: site.range });
        for (const c of candidatesOf(other)) spans.push({ path: c.ref.path, range: c.range });
        const document = documents.get(ref.path);
        if (document === undefined || isDocumentFailure(document)) continue;
        const at = (from: number, to: number) => spans.push({ path: ref.path, range: rangeOf(document, from, to) });
        if (site.locked)
            for (const place of findLockedText(document, site.locked, options.sha256)) at(place.from, place.to);
        for (const span of asWrittenElsewhere(ref, document)) spans.push(span);
        const previous = options.previous?.get(ref.path);
        if (previous !== undefined && !isDocumentFailure(previous)) {
            const then = resolveInDocument(previous, ref);
            if (then.valid)
                for (const from of placesOf(document.content, then.text, MAX_PLACES, document))
                    at(from, from + then.text.length);
        }
    }
    return spans;
}

/** True when the candidate's span overlaps one of the spans (same document). */
export function landsOn(candidate: RepairCandidate, spans: readonly CitedSpan[]): boolean {
    return spans.some((span) => span.path === candidate.ref.path && overlaps(span.range, candidate.range));
}

/** The ref with its strings as written, on every line its start string occurs (its span's height kept). */
function asWrittenElsewhere(ref: Ref, document: SessionDocument): CitedSpan[] {
    const spans: CitedSpan[] = [];
    const height = ref.end.line - ref.start.line;
    if (!Number.isInteger(height) || height < 0 || ref.start.str.length === 0) return spans;
    let lastLine = 0;
    for (const from of placesOf(document.content, ref.start.str, MAX_PLACES, document)) {
        const line = document.lines.positionAt(from).line;
        if (line === lastLine) continue;
        lastLine = line;
        const shifted = { ...ref, start: { ...ref.start, line }, end: { ...ref.end, line: line + height } };
        const resolution = resolveInDocument(document, shifted);
        if (resolution.valid) spans.push({ path: ref.path, range: resolution.range });
    }
    return spans;
}

function rangeOf(document: SessionDocument, from: number, to: number): Range {
    return { start: document.lines.positionAt(from), end: document.lines.positionAt(to) };
}

function overlaps(a: Range, b: Range): boolean {
    const before = (x: Range["start"], y: Range["start"]) =>
        x.line < y.line || (x.line === y.line && x.column < y.column);
    return before(a.start, b.end) && before(b.start, a.end);
}
