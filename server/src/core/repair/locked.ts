/**
 * Repair from a lock (docs/repair.md, "Evidence"): the text a ref meant when it was locked, looked
 * for in the document as it is now. Found exactly once, it is where the ref belongs. Found at
 * several places, or only approximately (a word changed inside it), the lock's context before and
 * after it (a W3C TextQuoteSelector's prefix and suffix, as Hypothesis anchors annotations) decides
 * between places, and only a place clearly ahead of the next is certain. Not found, nothing is.
 */
import search from "approx-string-match";
import { levenshtein } from "../editDistance";
import { DRIFTED_TEXT_RATE } from "../nearMatch";
import { placesOf } from "../placesIndex";
import type { SessionDocument } from "../session";
import type { Ref } from "../types";
import { spanRef } from "./follow";
import type { LockedSpan, RepairCandidate, RepairOptions } from "./types";

/** One place of the document that may hold the locked text. */
export interface LockedPlace {
    from: number;
    to: number;
    /** Edits between the locked text and the place's text (0: the locked text itself). */
    textErrors: number;
    /** Edits between the locked context (prefix and suffix) and the text around the place. */
    contextErrors: number;
    /** textErrors + contextErrors / CONTEXT_WEIGHT: lower is likelier. */
    cost: number;
}

/**
 * A character of context counts a quarter of a character of the text: the context is evidence of
 * where, the text of what. An identical copy with wholly different context (some 50 edits in 64
 * characters) costs about 12 more than the original.
 */
const CONTEXT_WEIGHT = 4;
/**
 * The margin a place needs over the next to be certain: 4 text edits, or 16 characters of context.
 * Measured on the drift corpus (test/unit/repairDrift.test.ts, locked text found at two places or
 * more): where the best place was the right one it led the next by 0 to 14 (36 of 62 by 4 or more);
 * where it was not, it never led at all (copies with the same context tie).
 */
export const LOCK_MARGIN = 4;
/** An approximate place differs from the locked text by at most this share of its characters (core/nearMatch.ts). */
const MAX_ERROR_RATE = DRIFTED_TEXT_RATE;
/** Texts shorter than this are found exactly or not at all: a near match of "37%" proves nothing. */
const MIN_APPROXIMATE = 16;
/** Places looked at, at most. */
const MAX_PLACES = 16;
/** Characters of context compared a side (twice what `lock` writes). */
const CONTEXT_COMPARED = 64;
/**
 * Texts longer than this are found exactly or not at all: the approximate search costs the text's
 * length times the document's, and `lock` stores longer texts by their ends anyway.
 */
const MAX_APPROXIMATE = 256;

/** The places that may hold the locked text, likeliest first. [] when the text is gone. */
export function findLockedText(
    document: SessionDocument,
    locked: LockedSpan,
    sha256?: (text: string) => string,
): LockedPlace[] {
    const content = document.content;
    const spans = locked.text !== undefined ? textPlaces(document, locked.text) : endsPlaces(document, locked, sha256);
    // The context nearest the text, at most CONTEXT_COMPARED characters a side: what `lock` writes
    // (32), and a bound on the edit distances whatever a hand-edited lock holds.
    const prefix = locked.prefix.slice(-CONTEXT_COMPARED);
    const suffix = locked.suffix.slice(0, CONTEXT_COMPARED);
    const places = spans.map(({ from, to, textErrors }) => {
        const before = content.slice(Math.max(0, from - prefix.length), from);
        const after = content.slice(to, to + suffix.length);
        const contextErrors = levenshtein(prefix, before) + levenshtein(suffix, after);
        return { from, to, textErrors, contextErrors, cost: textErrors + contextErrors / CONTEXT_WEIGHT };
    });
    return places.sort((a, b) => a.cost - b.cost || a.from - b.from);
}

/** Exact occurrences of a whole locked text; if none, the closest approximate ones, region by region. */
function textPlaces(document: SessionDocument, text: string): { from: number; to: number; textErrors: number }[] {
    const content = document.content;
    const found: { from: number; to: number; textErrors: number }[] = [];
    if (text.length === 0) return found;
    for (const at of placesOf(content, text, MAX_PLACES, document))
        found.push({ from: at, to: at + text.length, textErrors: 0 });
    if (found.length > 0 || text.length < MIN_APPROXIMATE || text.length > MAX_APPROXIMATE) return found;
    // The search returns only the closest matches: each region found is blanked out and the search
    // run again, so that the next place (the one the margin is measured against) is seen too.
    const maxErrors = Math.floor(text.length * MAX_ERROR_RATE);
    let haystack = content;
    for (let round = 0; round < 3; round++) {
        const matches = search(haystack, text, maxErrors);
        if (matches.length === 0) break;
        const best = Math.min(...matches.map((m) => m.errors));
        const regions: { from: number; to: number; textErrors: number }[] = [];
        for (const m of matches.filter((x) => x.errors === best).sort((a, b) => a.start - b.start)) {
            const last = regions.at(-1);
            if (last && m.start < last.to) continue;
            regions.push({ from: m.start, to: m.end, textErrors: m.errors });
        }
        for (const region of regions) {
            found.push(snapped(content, region, text));
            haystack = `${haystack.slice(0, region.from)}${"\u0000".repeat(region.to - region.from)}${haystack.slice(region.to)}`;
        }
        if (found.length >= MAX_PLACES) break;
    }
    return found;
}

/**
 * An approximate region's ends moved to where the locked text's own ends are, when the characters
 * there agree (the search may take a character more or less at an edge).
 */
function snapped(
    content: string,
    region: { from: number; to: number; textErrors: number },
    text: string,
): { from: number; to: number; textErrors: number } {
    let { from, to } = region;
    for (const d of [0, -1, 1, -2, 2]) {
        const at = region.from + d;
        if (at >= 0 && content.startsWith(text.slice(0, 2), at)) {
            from = at;
            break;
        }
    }
    for (const d of [0, 1, -1, 2, -2]) {
        const at = region.to + d;
        if (at - 2 >= from && content.slice(at - 2, at) === text.slice(-2)) {
            to = at;
            break;
        }
    }
    return { from, to, textErrors: levenshtein(text, content.slice(from, to)) };
}

/**
 * A long text is known by its head, tail, length and hash: a head followed, about `length` later, by
 * a tail. Exactly the locked text when the hash agrees; otherwise changed inside by about the
 * difference in length (at least one edit).
 */
function endsPlaces(
    document: SessionDocument,
    locked: LockedSpan,
    sha256?: (text: string) => string,
): { from: number; to: number; textErrors: number }[] {
    const content = document.content;
    const head = locked.head ?? "";
    const tail = locked.tail ?? "";
    const found: { from: number; to: number; textErrors: number }[] = [];
    if (head.length === 0 || tail.length === 0) return found;
    const slack = Math.ceil(locked.length * MAX_ERROR_RATE);
    // Every place the head starts (not only MAX_PLACES: some are skipped below), as indexOf would find them.
    for (const at of placesOf(content, head, Number.POSITIVE_INFINITY, document)) {
        if (found.length >= MAX_PLACES) break;
        const earliest = at + Math.max(head.length, locked.length - slack) - tail.length;
        const tailAt = content.indexOf(tail, Math.max(at + head.length, earliest));
        if (tailAt === -1) continue;
        const to = tailAt + tail.length;
        if (to - at > locked.length + slack) continue;
        const same =
            to - at === locked.length && sha256 !== undefined && sha256(content.slice(at, to)) === locked.sha256;
        found.push({ from: at, to, textErrors: same ? 0 : Math.max(1, Math.abs(to - at - locked.length)) });
    }
    return found;
}

/**
 * A short text found once far from its old context may be another sentence saying the same words
 * (the cited lines deleted, "37%" elsewhere): a place is evidence when the text is long enough to be
 * rare (LONG_TEXT characters) or at least half of its context is as locked.
 */
function placeIsEvidence(place: LockedPlace, locked: LockedSpan): boolean {
    const context = comparedContext(locked);
    return locked.length >= LONG_TEXT || place.contextErrors <= context / 2;
}
const LONG_TEXT = 64;

/** Lines of a range for people: "line 9" or "lines 9-11". */
export function linesOf(start: number, end: number): string {
    return start === end ? `line ${start}` : `lines ${start}-${end}`;
}

/**
 * The candidates the lock gives a ref: one per place, the first certain when it is the locked text
 * found once, or the best place by LOCK_MARGIN. `gone` when the text is nowhere: nothing to offer.
 */
export function lockCandidates<R extends Ref>(
    ref: R,
    document: SessionDocument,
    locked: LockedSpan,
    options: RepairOptions,
): { candidates: RepairCandidate<R>[]; gone: boolean } {
    const places = findLockedText(document, locked, options.sha256);
    if (places.length === 0) return { candidates: [], gone: true };
    const [best, next] = places;
    const clear = (next === undefined || next.cost - best.cost >= LOCK_MARGIN) && placeIsEvidence(best, locked);
    const candidates: RepairCandidate<R>[] = [];
    for (const place of places.slice(0, (options.maxCandidates ?? 5) + 1)) {
        const candidate = spanRef(ref, document, place.from, place.to, options, true);
        if (!candidate) continue;
        // A changed text is certain only with its ends as they were, its context mostly as locked (a
        // changed sentence elsewhere is another sentence), and its written strings or its lines kept:
        // the lock must still know the ref, to report text-changed.
        // Found only approximately, it is certain only as the one place within the limits: a second
        // one may be another sentence that says nearly the same (docs/security.md, "The lock's trust model").
        const certain =
            place === best &&
            clear &&
            (place.textErrors === 0 ||
                (next === undefined &&
                    endsAgree(document.content, place, locked) &&
                    place.contextErrors <= comparedContext(locked) / 4 &&
                    ((candidate.ref.start.str === ref.start.str && candidate.ref.end.str === ref.end.str) ||
                        (candidate.ref.start.line === ref.start.line && candidate.ref.end.line === ref.end.line))));
        const where = linesOf(candidate.range.start.line, candidate.range.end.line);
        let evidence: string;
        if (place.textErrors === 0 && next === undefined) evidence = `the locked text was found on ${where}`;
        else if (place.textErrors === 0 && certain)
            evidence = `the locked text occurs ${places.filter((p) => p.textErrors === 0).length} times; only on ${where} is its context as locked`;
        else if (certain)
            evidence = `${APPROXIMATE}: the locked text was found changed (${plural(place.textErrors, "character")} differ) on ${where}; it stays text-changed until it is locked again`;
        else if (place.textErrors > 0)
            evidence = `${APPROXIMATE}: a place like the locked text (${plural(place.textErrors, "character")} differ) on ${where}, not certain`;
        else evidence = `a place of the locked text on ${where}, not clearly ahead of the others`;
        candidates.push({ ...candidate, certain, cost: place.cost, evidenceKind: "lock", evidence });
    }
    return { candidates, gone: false };
}

/** Characters of context `findLockedText` compared, both sides. */
function comparedContext(locked: LockedSpan): number {
    return Math.min(locked.prefix.length, CONTEXT_COMPARED) + Math.min(locked.suffix.length, CONTEXT_COMPARED);
}

/** How a repair from a lock entry whose text was not found exactly is named: it is no proof of the text. */
export const APPROXIMATE = "lock-anchored (approximate)";

/** The place begins and ends as the locked text did (ENDS characters each, or the whole text). */
function endsAgree(content: string, place: LockedPlace, locked: LockedSpan): boolean {
    const head = (locked.text ?? locked.head ?? "").slice(0, ENDS);
    const tail = (locked.text ?? locked.tail ?? "").slice(-ENDS);
    if (head.length === 0 || place.to - place.from < Math.max(head.length, tail.length)) return false;
    return content.startsWith(head, place.from) && content.slice(place.to - tail.length, place.to) === tail;
}
const ENDS = 8;

function plural(n: number, word: string): string {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
}
