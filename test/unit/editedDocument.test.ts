/**
 * The server's open buffers (workspace/editedDocument.ts) hold their text in pieces (core/textChunks.ts)
 * and must read as vscode-languageserver-textdocument's TextDocument does: the same text, lines,
 * positions and offsets after any sequence of changes (LF, CRLF, lone CR, surrogate pairs, edits
 * across pieces, reversed and out-of-range positions, whole-text changes). A version's pieces are
 * never changed by a later edit, and two versions share the pieces an edit did not touch.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { type Position, TextDocument, type TextDocumentContentChangeEvent } from "vscode-languageserver-textdocument";
import { commonPrefix, commonSuffix, TextChunks } from "../../server/src/core/textChunks";
import { EditedDocument, updateDocument } from "../../server/src/workspace/editedDocument";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 200);
const textArbitrary = fc
    .array(fc.constantFrom("a", "b", " ", "文", "\n", "\r", "\r\n", "😀", '"', "{"), { maxLength: 120 })
    .map((parts) => parts.join(""));
const positionArbitrary = fc.record({
    line: fc.integer({ min: -1, max: 40 }),
    character: fc.integer({ min: -1, max: 30 }),
});
const changeArbitrary = fc.oneof(
    {
        weight: 9,
        arbitrary: fc.record({
            range: fc.record({ start: positionArbitrary, end: positionArbitrary }),
            text: textArbitrary,
        }),
    },
    { weight: 1, arbitrary: fc.record({ text: textArbitrary }) },
);

/** Everything a reader of a TextDocument can ask, asked of both. */
function assertSameDocument(ours: TextDocument, theirs: TextDocument): void {
    const text = theirs.getText();
    assert.equal(ours.getText(), text);
    assert.equal(ours.version, theirs.version);
    assert.equal(ours.lineCount, theirs.lineCount);
    for (let offset = -1; offset <= text.length + 1; offset++)
        assert.deepEqual(ours.positionAt(offset), theirs.positionAt(offset), `positionAt(${offset})`);
    for (let line = -1; line <= theirs.lineCount; line++) {
        assert.deepEqual(ours.getLineRange(line), theirs.getLineRange(line), `getLineRange(${line})`);
        assert.equal(ours.getEOLCharacters(line), theirs.getEOLCharacters(line), `getEOLCharacters(${line})`);
        for (let character = -1; character <= 12; character++) {
            const position = { line, character };
            assert.equal(ours.offsetAt(position), theirs.offsetAt(position), `offsetAt(${line}:${character})`);
        }
    }
}

describe("edited documents (the server's buffers)", () => {
    it("read as vscode-languageserver-textdocument's after any sequence of changes (fast-check)", () => {
        let updates = 0;
        fc.assert(
            fc.property(
                textArbitrary,
                fc.integer({ min: 1, max: 24 }),
                fc.array(fc.array(changeArbitrary, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
                fc.array(fc.record({ start: positionArbitrary, end: positionArbitrary }), { maxLength: 4 }),
                (initial, piece, batches, ranges) => {
                    const ours = EditedDocument.create("file:///a.json", "json", 1, initial, piece);
                    const theirs = TextDocument.create("file:///a.json", "json", 1, initial);
                    assertSameDocument(ours, theirs);
                    let version = 1;
                    for (const changes of batches) {
                        const before = ours.text;
                        const beforeText = before.toString();
                        version++;
                        // Lines past the last one: that library splices its line starts there (a sparse
                        // array); ours counts its lines again (the next test). Compared within the document.
                        const scratch = TextDocument.create(theirs.uri, "json", 0, theirs.getText());
                        const within = changes.map((change) => {
                            const kept = inside(change, scratch.lineCount);
                            TextDocument.update(scratch, [kept], 0);
                            return kept;
                        });
                        assert.equal(updateDocument(ours, within, version), ours);
                        TextDocument.update(theirs, within, version);
                        updates++;
                        assertSameDocument(ours, theirs);
                        // The last version's pieces are as they were.
                        assert.equal(before.toString(), beforeText);
                        for (const range of ranges) assert.equal(ours.getText(range), theirs.getText(range));
                    }
                },
            ),
            { numRuns, seed: 45 },
        );
        assert.ok(updates >= numRuns, `${updates} updates compared`);
    });

    it("a change whose range runs past the last line edits up to the end of the text", () => {
        const document = EditedDocument.create("file:///a.json", "json", 1, "ab\r\ncd", 2);
        const end = { line: 9, character: 3 };
        EditedDocument.update(document, [{ range: { start: { line: 1, character: 1 }, end }, text: "x\ny" }], 2);
        assert.equal(document.getText(), "ab\r\ncx\ny");
        assert.equal(document.lineCount, 3);
        assert.deepEqual(document.positionAt(8), { line: 2, character: 1 });
        EditedDocument.update(document, [{ range: { start: { line: 7, character: 0 }, end }, text: "!" }], 3);
        assert.equal(document.getText(), "ab\r\ncx\ny!");
        assert.equal(document.offsetAt({ line: 2, character: 5 }), 9);
    });

    it("an edit shares every piece it does not touch, and a check compares only those it touched", () => {
        const line = '  { "claim": "报告 alpha", "confidence": 0.47 },\n';
        const text = `[\n${line.repeat(6000)}]`;
        const document = EditedDocument.create("file:///big.json", "json", 1, text);
        const before = document.text;
        const at = text.indexOf("0.47", text.length / 2) + 3;
        const position = document.positionAt(at);
        EditedDocument.update(
            document,
            [
                {
                    range: { start: position, end: { line: position.line, character: position.character + 1 } },
                    text: "1",
                },
            ],
            2,
        );
        const after = document.text;
        const expected = `${text.slice(0, at)}1${text.slice(at + 1)}`;
        assert.equal(after.toString(), expected);
        // All but the piece holding the edit are the same strings: at most one piece (16,384 characters) apart.
        assert.ok(before.sharedPrefix(after) > at - (1 << 14), `shared prefix ${before.sharedPrefix(after)} of ${at}`);
        const suffixLimit = text.length - at - 1;
        assert.ok(before.sharedSuffix(after, suffixLimit) > suffixLimit - (1 << 14));
        assert.equal(commonPrefix(before, after), at);
        assert.equal(commonSuffix(before, after, text.length - at), text.length - at - 1);
        assert.equal(before.toString(), text);
    });

    it("pieces compare as the strings they spell (common prefix and suffix, slices, characters)", () => {
        fc.assert(
            fc.property(
                textArbitrary,
                fc.integer({ min: 1, max: 16 }),
                fc.array(fc.tuple(fc.nat(200), fc.nat(200), textArbitrary), { maxLength: 6 }),
                (initial, piece, edits) => {
                    let chunks = TextChunks.of(initial, piece);
                    let plain = initial;
                    for (const [a, b, inserted] of edits) {
                        const from = Math.min(a, b) % (plain.length + 1);
                        const to = Math.min((Math.max(a, b) % (plain.length + 1)) + from, plain.length);
                        const next = chunks.replace(from, to, inserted);
                        const nextPlain = plain.slice(0, from) + inserted + plain.slice(to);
                        assert.equal(next.length, nextPlain.length);
                        assert.equal(next.toString(), nextPlain);
                        const prefix = naivePrefix(plain, nextPlain);
                        assert.equal(commonPrefix(chunks, next), prefix);
                        assert.equal(commonPrefix(plain, next), prefix);
                        const limit = Math.min(plain.length, nextPlain.length) - prefix;
                        assert.equal(commonSuffix(chunks, next, limit), naiveSuffix(plain, nextPlain, limit));
                        for (let i = -1; i <= nextPlain.length; i++) {
                            assert.equal(Number.isNaN(next.charCodeAt(i)), Number.isNaN(nextPlain.charCodeAt(i)));
                            if (i >= 0 && i < nextPlain.length)
                                assert.equal(next.charCodeAt(i), nextPlain.charCodeAt(i));
                            assert.equal(next.slice(i, i + 7), nextPlain.slice(Math.max(0, i), Math.max(0, i + 7)));
                        }
                        chunks = next;
                        plain = nextPlain;
                    }
                },
            ),
            { numRuns, seed: 45 },
        );
    });
});

/** A change with its lines inside [-1, lineCount - 1]. */
function inside(change: TextDocumentContentChangeEvent, lineCount: number): TextDocumentContentChangeEvent {
    if (!("range" in change)) return change;
    const clamp = (p: Position): Position => ({ ...p, line: Math.min(p.line, lineCount - 1) });
    return { ...change, range: { start: clamp(change.range.start), end: clamp(change.range.end) } };
}

function naivePrefix(a: string, b: string): number {
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return n;
}

function naiveSuffix(a: string, b: string, limit: number): number {
    let n = 0;
    while (n < limit && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
    return n;
}
