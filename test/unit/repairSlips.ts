/**
 * The slips people and models make when they write a boundary string by hand (issue 32; docs/repair.md,
 * "Measured"): a whitespace run doubled or halved, the case of a word's first letter, one character off
 * in a short boundary, one Chinese character substituted, added or missing, a Latin letter dropped next
 * to Chinese punctuation, a number changed. Built from prose with a seeded RNG; shares no code with
 * repair: the span meant is known by construction, and each case has an undecidable twin (a second,
 * equally near copy of the meant text on the same line, where order allows it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type Ref, resolveRef } from "../../server/src/core";
import { llmRef, offsetOf, PROSE_LINES, randomSpan, session } from "./repairCorpus";

export type SlipKind = "whitespace" | "case-start" | "typo" | "cjk" | "cjk-latin" | "number";
export const SLIP_KINDS: SlipKind[] = ["whitespace", "case-start", "typo", "cjk", "cjk-latin", "number"];

export interface SlipCase {
    kind: SlipKind;
    lines: string[];
    broken: Ref;
    /** Offsets of the meant span in the document. */
    expected: { start: number; end: number };
    /** The slipped boundary, and the meant (unslipped) string at its place. */
    side: "start" | "end";
    meant: string;
    /** The same slip with a second copy of the meant text on the line: nothing decides between them. */
    twin?: { lines: string[]; broken: Ref };
}

export const SLIP_DOC = "notes/slips.md";

const fixture = (name: string) =>
    fs
        .readFileSync(path.join(__dirname, "../../../test/fixtures", name), "utf8")
        .split("\n")
        .filter((line) => line.length > 0);
const ZH_LINES = fixture("repair-prose-zh.txt");
const NUMBER_LINES = fixture("repair-prose-numbers.txt");

const HAN = /\p{Script=Han}/u;
const count = (line: string, str: string) => {
    let n = 0;
    for (let at = line.indexOf(str); at !== -1; at = line.indexOf(str, at + 1)) n++;
    return n;
};
const pick = <T>(items: ArrayLike<T>, next: () => number): T => items[Math.floor(next() * items.length)];

/** A document of 30-50 lines: English prose with numbered lines mixed in, or Chinese prose. */
function documentFor(kind: SlipKind, next: () => number): string[] {
    const pool = kind === "cjk" || kind === "cjk-latin" ? ZH_LINES : kind === "number" ? NUMBER_LINES : PROSE_LINES;
    const length = Math.min(pool.length, 30 + Math.floor(next() * 20));
    const from = Math.floor(next() * (pool.length - length + 1));
    return pool.slice(from, from + length);
}

/** A ref to a span of a Chinese line: boundaries of 3-4 characters, unique on the line. */
function chineseRef(lines: string[], next: () => number): { ref: Ref; start: number; end: number } | undefined {
    const line = 1 + Math.floor(next() * lines.length);
    const text = lines[line - 1];
    const s = Math.floor(next() * (text.length - 8));
    if (s < 0 || !HAN.test(text[s])) return undefined;
    const e = s + 8 + Math.floor(next() * (text.length - s - 8 + 1));
    const startStr = text.slice(s, s + 3 + Math.floor(next() * 2));
    const endStr = text.slice(e - 3 - Math.floor(next() * 2), e);
    if (count(text, startStr) !== 1 || count(text, endStr) !== 1) return undefined;
    // Boundaries people write do not cut a Latin word ("使用Op" of "使用OpenAPI").
    const latin = /[A-Za-z0-9]/;
    const cuts = (at: number) => latin.test(text[at - 1] ?? "") && latin.test(text[at] ?? "");
    if ([s, s + startStr.length, e - endStr.length, e].some(cuts)) return undefined;
    const ref = { path: SLIP_DOC, start: { line, str: startStr }, end: { line, str: endStr } };
    return { ref, start: offsetOf(lines, line, s), end: offsetOf(lines, line, e) };
}

/** A Latin word run followed by Chinese punctuation, as the end of a span: "为JSON。". */
function latinPunctuationRef(
    lines: string[],
    next: () => number,
): { ref: Ref; start: number; end: number } | undefined {
    const sites: { line: number; at: number; length: number }[] = [];
    for (const [i, text] of lines.entries())
        for (const m of text.matchAll(/\p{Script=Han}([A-Za-z]{3,})[。，；：]/gu))
            sites.push({ line: i + 1, at: m.index, length: m[0].length });
    if (sites.length === 0) return undefined;
    const site = pick(sites, next);
    const text = lines[site.line - 1];
    const e = site.at + site.length;
    const s = Math.floor(next() * Math.max(1, site.at - 2));
    const startStr = text.slice(s, s + 3);
    const endStr = text.slice(site.at, e);
    if (!HAN.test(startStr[0]) || count(text, startStr) !== 1 || count(text, endStr) !== 1) return undefined;
    const ref = { path: SLIP_DOC, start: { line: site.line, str: startStr }, end: { line: site.line, str: endStr } };
    return { ref, start: offsetOf(lines, site.line, s), end: offsetOf(lines, site.line, e) };
}

/** A ref whose start or end string holds a number: "is 30 seconds". */
function numberRef(
    lines: string[],
    next: () => number,
): { ref: Ref; start: number; end: number; side: "start" | "end" } | undefined {
    const line = 1 + Math.floor(next() * lines.length);
    const text = lines[line - 1];
    const numbers = [...text.matchAll(/(\S+ )(\d[\d.:]*)( \S+)/g)];
    if (numbers.length === 0) return undefined;
    const m = pick(numbers, next);
    const side = next() < 0.5 ? "start" : "end";
    const wordStarts = [...text.slice(0, m.index).matchAll(/(?<!\S)\S/g)].map((w) => w.index);
    if (side === "end" && wordStarts.length === 0) return undefined;
    const s = side === "start" ? m.index : pick(wordStarts, next);
    const e = side === "end" ? m.index + m[0].length : text.length;
    const startStr =
        side === "start" ? m[0] : text.slice(s, text.indexOf(" ", s) === -1 ? s + 4 : text.indexOf(" ", s));
    const endStr = side === "end" ? m[0] : text.slice(text.lastIndexOf(" ") + 1);
    if (s >= e || count(text, startStr) !== 1 || count(text, endStr) !== 1 || startStr.length === 0) return undefined;
    const ref = { path: SLIP_DOC, start: { line, str: startStr }, end: { line, str: endStr } };
    return { ref, start: offsetOf(lines, line, s), end: offsetOf(lines, line, e), side };
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const HAN_POOL =
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严";

/** The kinds that change one character: substitute, delete, insert, or swap two neighbours inside a word. */
function typo(str: string, next: () => number): string | undefined {
    const inner = [...str.matchAll(/\p{L}{3,}/gu)].flatMap((m) =>
        Array.from({ length: m[0].length - 1 }, (_, i) => m.index + 1 + i),
    );
    if (inner.length === 0) return undefined;
    const at = pick(inner, next);
    const r = next();
    const letter = pick(LETTERS, next);
    if (r < 0.3) return str.slice(0, at) + letter + str.slice(at + 1);
    if (r < 0.55) return str.slice(0, at) + str.slice(at + 1);
    if (r < 0.8) return str.slice(0, at) + letter + str.slice(at);
    const [a, b] = [str[at - 1], str[at]];
    return at - 1 > 0 && /\p{L}/u.test(a) && a !== b ? str.slice(0, at - 1) + b + a + str.slice(at + 1) : undefined;
}

/** One Chinese character of a 3-4 character string substituted (a Han character or a stray Latin letter), added or missing. */
function cjkSlip(
    str: string,
    side: "start" | "end",
    outside: string | undefined,
    next: () => number,
): string | undefined {
    const chars = Array.from(str);
    // The edge character (the span's first or last) stays, or is substituted: a dropped edge
    // character is another, shorter boundary, not a slip of this one.
    const edge = side === "start" ? 0 : chars.length - 1;
    const r = next();
    if (r < 0.4) {
        const at = Math.floor(next() * chars.length);
        if (!HAN.test(chars[at])) return undefined;
        chars[at] = next() < 0.2 ? pick(LETTERS, next) : pick(HAN_POOL, next);
        // The character outside the edge typed in its place is a deletion as much as a substitution
        // ("任一层" in "任何一层": one edit from both): that slip is undecidable, not this kind.
        if (at === edge && chars[at] === outside) return undefined;
    } else if (r < 0.7) {
        const at = 1 + Math.floor(next() * (chars.length - 1));
        chars.splice(at, 0, pick(HAN_POOL, next));
    } else {
        // Missing: from a 4-character string, so that 3 are written (the "重机制" for "重试机制").
        if (chars.length !== 4) return undefined;
        const inner = chars.map((_, i) => i).filter((i) => i !== edge && HAN.test(chars[i]));
        if (inner.length === 0) return undefined;
        chars.splice(pick(inner, next), 1);
    }
    return chars.join("");
}

function toggleWordStart(str: string, next: () => number): string | undefined {
    const starts = [...str.matchAll(/(?<!\p{L})\p{L}/gu)].map((m) => m.index);
    if (starts.length === 0) return undefined;
    const at = next() < 0.7 ? starts[0] : pick(starts, next);
    const c = str[at];
    const toggled = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    return toggled === c ? undefined : str.slice(0, at) + toggled + str.slice(at + 1);
}

function changeNumber(str: string, next: () => number): string | undefined {
    const numbers = [...str.matchAll(/\d+/g)];
    if (numbers.length === 0) return undefined;
    const m = pick(numbers, next);
    const changed = String(Number(m[0]) + 1 + Math.floor(next() * 9));
    return str.slice(0, m.index) + changed + str.slice(m.index + m[0].length);
}

/** One case of a kind, or undefined when the draw does not fit it (draw again). */
export function makeSlipCase(kind: SlipKind, next: () => number): SlipCase | undefined {
    let lines = documentFor(kind, next);
    let made: { ref: Ref; start: number; end: number; side?: "start" | "end" } | undefined;
    if (kind === "cjk") made = chineseRef(lines, next);
    else if (kind === "cjk-latin") made = latinPunctuationRef(lines, next);
    else if (kind === "number") made = numberRef(lines, next);
    else {
        const span = randomSpan(lines, next, 2);
        const ref = span && llmRef(lines, span, next, SLIP_DOC);
        if (span && ref)
            made = {
                ref,
                start: offsetOf(lines, span.startLine, span.startColumn),
                end: offsetOf(lines, span.endLine, span.endColumn),
            };
    }
    if (!made) return undefined;
    const side = made.side ?? (kind === "cjk-latin" ? "end" : next() < 0.5 ? "start" : "end");
    let { ref, start, end } = made;
    const meant = ref[side].str;
    let slipped: string | undefined;
    if (kind === "whitespace") {
        const spaces = [...meant.matchAll(/ /g)].map((m) => m.index);
        if (spaces.length === 0) return undefined;
        const at = pick(spaces, next);
        if (next() < 0.5) slipped = `${meant.slice(0, at)}  ${meant.slice(at + 1)}`;
        else {
            // The document has two spaces there, the author wrote one: widen the document's line.
            const lineNo = ref[side].line;
            const text = lines[lineNo - 1];
            const column =
                side === "start" ? start - offsetOf(lines, lineNo, 0) : end - offsetOf(lines, lineNo, 0) - meant.length;
            if (text.slice(column, column + meant.length) !== meant) return undefined;
            lines = lines.map((l, i) =>
                i === lineNo - 1 ? `${text.slice(0, column + at)} ${text.slice(column + at)}` : l,
            );
            // The space goes inside the boundary string, so inside the span: only its end moves.
            end += 1;
            const doubled = `${meant.slice(0, at)}  ${meant.slice(at + 1)}`;
            ref = { ...ref, [side]: { ...ref[side], str: doubled } };
            slipped = meant;
        }
    } else if (kind === "case-start") slipped = toggleWordStart(meant, next);
    else if (kind === "typo") slipped = meant.length <= 16 ? typo(meant, next) : undefined;
    else if (kind === "cjk") {
        const sideLine = lines[ref[side].line - 1];
        const column = (side === "start" ? start : end) - offsetOf(lines, ref[side].line, 0);
        slipped = cjkSlip(meant, side, side === "start" ? sideLine[column - 1] : sideLine[column], next);
    } else if (kind === "cjk-latin") {
        const letters = [...meant.matchAll(/[A-Za-z](?=[。，；：])/g)];
        slipped =
            letters.length === 0 ? undefined : meant.slice(0, letters[0].index) + meant.slice(letters[0].index + 1);
    } else slipped = changeNumber(meant, next);
    if (slipped === undefined || slipped === meant || slipped.trim().length === 0) return undefined;
    const documents = session({ [SLIP_DOC]: lines });
    const valid = resolveRef(documents, ref);
    if (!valid.valid || valid.startOffset !== start || valid.endOffset !== end) return undefined;
    const written = ref[side].str;
    const line = lines[ref[side].line - 1];
    // A "slip" that occurs on the line is another string, not a slip.
    if (line.includes(slipped)) return undefined;
    const broken = { ...ref, [side]: { ...ref[side], str: slipped } };
    if (resolveRef(documents, broken).valid) return undefined;
    return {
        kind,
        lines,
        broken,
        expected: { start, end },
        side,
        meant: written,
        twin: twinOf(lines, broken, ref, side, start, end),
    };
}

/**
 * The same slip with a copy of the meant text beside the meant one, on the side where the other
 * boundary keeps both in order (before a start, after an end): two equally near readings.
 */
function twinOf(lines: string[], broken: Ref, ref: Ref, side: "start" | "end", start: number, end: number) {
    const lineNo = ref[side].line;
    const text = lines[lineNo - 1];
    const lineStart = offsetOf(lines, lineNo, 0);
    const meantText =
        side === "start"
            ? text.slice(start - lineStart, start - lineStart + ref.start.str.length)
            : text.slice(end - lineStart - ref.end.str.length, end - lineStart);
    const unspaced = HAN.test(meantText);
    const gap = unspaced ? "，" : " ";
    const column = side === "start" ? start - lineStart : end - lineStart;
    const changed =
        side === "start"
            ? `${text.slice(0, column)}${meantText}${gap}${text.slice(column)}`
            : `${text.slice(0, column)}${gap}${meantText}${text.slice(column)}`;
    const other = side === "start" ? "end" : "start";
    const otherLine = ref[other].line === lineNo ? changed : lines[ref[other].line - 1];
    if (count(otherLine, ref[other].str) !== 1) return undefined;
    const twinLines = lines.map((l, i) => (i === lineNo - 1 ? changed : l));
    if (resolveRef(session({ [SLIP_DOC]: twinLines }), broken).valid) return undefined;
    return { lines: twinLines, broken };
}
