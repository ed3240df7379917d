/**
 * Refs authored by `cite` over real prose, locked, then the document drifts (docs/repair.md,
 * "Measured"): lines inserted, deleted or moved; a word changed inside or beside a cited span; the
 * cited lines deleted or copied elsewhere. Every line carries an identity through the drift, so
 * where each span went (or that it is gone) is known by construction, never from the engine.
 */
import { createHash } from "node:crypto";
import { citeQuote, type LockedSpan, type Ref, resolveRef, type Session, SessionDocument } from "../../server/src/core";
import { baseDocument, filler, randomSpan, session } from "./repairCorpus";

export type DriftKind = "insert" | "delete" | "move" | "word-inside" | "word-beside" | "delete-cited" | "copy-cited";
export const DRIFT_KINDS: DriftKind[] = [
    "insert",
    "delete",
    "move",
    "word-inside",
    "word-beside",
    "delete-cited",
    "copy-cited",
];

export const DOC = "notes/prose.md";
export const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

interface Line {
    id: number;
    text: string;
}

export interface DriftRef {
    ref: Ref;
    locked: LockedSpan;
    /** Where the locked span is after the drift (offsets), undefined when a boundary line is gone. */
    expected?: { start: number; end: number };
    /** The text at `expected` is the locked text, unchanged. */
    textExists: boolean;
}

export interface DriftCase {
    kind: DriftKind;
    before: Session;
    after: Session;
    refs: DriftRef[];
}

/** A lock of a resolved ref: the shape docs/lock.md records (text or ends, context, where). */
export function lockOf(document: SessionDocument, ref: Ref): LockedSpan | undefined {
    const r = resolveRef({ get: () => document }, ref);
    if (!r.valid) return undefined;
    const content = document.content;
    const locked: LockedSpan = {
        length: r.text.length,
        sha256: sha256(r.text),
        prefix: content.slice(Math.max(0, r.startOffset - 32), r.startOffset),
        suffix: content.slice(r.endOffset, r.endOffset + 32),
        range: r.range,
    };
    if (r.text.length <= 256) locked.text = r.text;
    else {
        locked.head = r.text.slice(0, 64);
        locked.tail = r.text.slice(-64);
    }
    return locked;
}

const REPLACEMENTS = ["revised", "altered", "other", "new", "changed"];

export function makeDriftCase(kind: DriftKind, next: () => number, refCount = 8): DriftCase | undefined {
    const texts = baseDocument(next);
    const lines: Line[] = texts.map((text, i) => ({ id: i, text }));
    const before = new SessionDocument(DOC, texts.join("\n"));
    // Quotes cited with `cite`, as an agent writes refs: word-aligned, short, unique boundaries.
    const cited: { ref: Ref; startId: number; endId: number; startColumn: number; endColumn: number }[] = [];
    for (let attempt = 0; attempt < refCount * 6 && cited.length < refCount; attempt++) {
        const span = randomSpan(texts, next, 2);
        if (!span) continue;
        const startOffset = before.lines.offsetAt(span.startLine, span.startColumn);
        const endOffset = before.lines.offsetAt(span.endLine, span.endColumn);
        const quote = before.content.slice(startOffset, endOffset);
        const result = citeQuote(before, quote);
        if (!result.ok) continue;
        const r = resolveRef({ get: () => before }, result.ref);
        if (!r.valid || r.startOffset !== startOffset || r.endOffset !== endOffset) continue;
        cited.push({
            ref: result.ref,
            startId: span.startLine - 1,
            endId: span.endLine - 1,
            startColumn: span.startColumn,
            endColumn: span.endColumn,
        });
    }
    if (cited.length === 0) return undefined;
    const exclude = new Set(texts);
    let nextId = texts.length;
    const fresh = (text: string): Line => ({ id: nextId++, text });
    // Column changes of a line by a word replaced in it: [line id, column, delta].
    const edits: { id: number; at: number; delta: number }[] = [];
    const target = cited[Math.floor(next() * cited.length)];
    const indexOf = (id: number) => lines.findIndex((l) => l.id === id);

    const replaceWord = (id: number, inside: boolean): boolean => {
        const i = indexOf(id);
        const text = lines[i].text;
        const words = [...text.matchAll(/\p{L}{3,}/gu)];
        const from = id === target.startId ? target.startColumn : 0;
        const to = id === target.endId ? target.endColumn : text.length;
        const pool = words.filter((w) =>
            inside ? w.index >= from && w.index + w[0].length <= to : w.index + w[0].length <= from || w.index >= to,
        );
        // Beside: the word nearest the span's edge, within its locked context.
        const chosen = inside
            ? pool[Math.floor(next() * pool.length)]
            : pool.sort(
                  (a, b) =>
                      Math.min(Math.abs(a.index - to), Math.abs(a.index + a[0].length - from)) -
                      Math.min(Math.abs(b.index - to), Math.abs(b.index + b[0].length - from)),
              )[0];
        if (!chosen) return false;
        const word = REPLACEMENTS.find((w) => w !== chosen[0].toLowerCase()) ?? "revised";
        lines[i] = { id, text: text.slice(0, chosen.index) + word + text.slice(chosen.index + chosen[0].length) };
        edits.push({ id, at: chosen.index, delta: word.length - chosen[0].length });
        return true;
    };

    switch (kind) {
        case "insert": {
            const k = 1 + Math.floor(next() * (next() < 0.8 ? 5 : 40));
            const at = Math.floor(next() * (lines.length + 1));
            lines.splice(at, 0, ...filler(next, k, exclude).map(fresh));
            break;
        }
        case "delete": {
            const k = 1 + Math.floor(next() * 5);
            const at = Math.floor(next() * (lines.length - k));
            lines.splice(at, k);
            break;
        }
        case "move": {
            const k = 1 + Math.floor(next() * 6);
            const at = Math.floor(next() * (lines.length - k));
            const block = lines.splice(at, k);
            const to = Math.floor(next() * (lines.length + 1));
            lines.splice(to, 0, ...block);
            break;
        }
        case "word-inside":
            if (!replaceWord(target.startId, true)) return undefined;
            break;
        case "word-beside":
            if (!replaceWord(next() < 0.5 ? target.startId : target.endId, false)) return undefined;
            break;
        case "delete-cited": {
            const i = indexOf(target.startId);
            lines.splice(i, indexOf(target.endId) - i + 1);
            break;
        }
        case "copy-cited": {
            const i = indexOf(target.startId);
            const copies = lines.slice(i, indexOf(target.endId) + 1).map((l) => fresh(l.text));
            const to = Math.floor(next() * (lines.length + 1));
            lines.splice(to, 0, ...copies);
            break;
        }
    }
    // Often lines are inserted above too, so that refs also have to move.
    if (next() < 0.5) {
        const k = 1 + Math.floor(next() * 5);
        lines.splice(Math.floor(next() * lines.length), 0, ...filler(next, k, exclude).map(fresh));
    }
    const after = new SessionDocument(DOC, lines.map((l) => l.text).join("\n"));
    const refs: DriftRef[] = [];
    for (const c of cited) {
        const locked = lockOf(before, c.ref);
        if (!locked) continue;
        const startLine = indexOf(c.startId) + 1;
        const endLine = indexOf(c.endId) + 1;
        let expected: DriftRef["expected"];
        if (startLine > 0 && endLine > 0 && startLine <= endLine) {
            const shift = (id: number, column: number, isEnd: boolean) =>
                column +
                edits
                    .filter((e) => e.id === id && (isEnd ? e.at < column : e.at < column))
                    .reduce((sum, e) => sum + e.delta, 0);
            const start = after.lines.offsetAt(startLine, shift(c.startId, c.startColumn, false));
            const end = after.lines.offsetAt(endLine, shift(c.endId, c.endColumn, true));
            expected = { start, end };
        }
        const textExists = expected !== undefined && after.content.slice(expected.start, expected.end) === locked.text;
        refs.push({ ref: c.ref, locked, expected, textExists });
    }
    return { kind, before: session({ [DOC]: texts }), after: session({ [DOC]: lines.map((l) => l.text) }), refs };
}
