/**
 * The only reading of a misquoted boundary, rule by rule (docs/repair.md, "Near matches"): each
 * rule makes the slip certain when exactly one place of its line is within the limits and the other
 * boundary is found as written, and uncertain when a second near match is there too.
 */
import * as assert from "node:assert/strict";
import { type Ref, repairRef, resolveRef, Session, SessionDocument } from "../../server/src/core";

const DOC = "doc.md";

function repair(lines: string[], ref: Omit<Ref, "path">) {
    const session = new Session([new SessionDocument(DOC, lines.join("\n"))]);
    const broken = { path: DOC, ...ref };
    assert.equal(resolveRef(session, broken).valid, false, "the ref is broken to begin with");
    const candidates = repairRef(broken, session, { unchanged: true });
    return { candidates, certain: candidates.filter((c) => c.certain) };
}

/** The certain repair resolves to exactly `text` starting at `column` (from 1) of `line`. */
function assertCertain(lines: string[], ref: Omit<Ref, "path">, line: number, column: number, text: string) {
    const { certain } = repair(lines, ref);
    assert.equal(certain.length, 1, "exactly one certain repair");
    assert.equal(certain[0].reason, "misquote");
    assert.equal(certain[0].evidenceKind, "reading");
    assert.equal(certain[0].text, text);
    assert.equal(certain[0].range.start.line, line);
    assert.equal(certain[0].range.start.column + 1, column);
}

function assertUncertain(lines: string[], ref: Omit<Ref, "path">) {
    const { candidates, certain } = repair(lines, ref);
    assert.equal(certain.length, 0, `nothing certain, got ${JSON.stringify(certain.map((c) => c.ref))}`);
    return candidates;
}

const at = (line: number, str: string) => ({ line, str });

describe("repair: the only reading of a misquote, rule by rule", () => {
    describe("whitespace runs", () => {
        it("reads two spaces where the document has one, and one where it has two", () => {
            const lines = ["The fields:", "- `id` is the key of each row."];
            assertCertain(lines, { start: at(2, "-  `id"), end: at(2, "each row.") }, 2, 1, lines[1]);
            const spaced = ["x =  3 and the rest follows from the test config."];
            assertCertain(spaced, { start: at(1, "= 3"), end: at(1, "test config.") }, 1, 3, spaced[0].slice(2));
        });
        it("is uncertain when the line holds the string twice, differently spaced", () => {
            assertUncertain(["x = 3 and y =  3 in the test config."], {
                start: at(1, "=   3"),
                end: at(1, "test config."),
            });
        });
    });

    describe("case at a word's start", () => {
        it("reads a sentence-initial capital", () => {
            const lines = ["Then retry the request after a pause."];
            assertCertain(
                lines,
                { start: at(1, "Retry"), end: at(1, "a pause.") },
                1,
                6,
                "retry the request after a pause.",
            );
        });
        it("is uncertain when the word occurs twice", () => {
            assertUncertain(["Then retry the request, or retry it after a pause."], {
                start: at(1, "Retry"),
                end: at(1, "a pause."),
            });
        });
    });

    describe("one character off in a short boundary", () => {
        it('reads "Reciept" as "Receipt" and ".paylaod[" as ".payload["', () => {
            const receipt = ["Keep the Receipt number for your records."];
            assertCertain(
                receipt,
                { start: at(1, "Reciept"), end: at(1, "your records.") },
                1,
                10,
                "Receipt number for your records.",
            );
            const payload = ["Read data.payload[0] before the loop ends."];
            assertCertain(
                payload,
                { start: at(1, ".paylaod["), end: at(1, "loop ends.") },
                1,
                10,
                ".payload[0] before the loop ends.",
            );
        });
        it("is uncertain when a second word is one character off too", () => {
            assertUncertain(["Keep the Receipt and the receipt number for your records."], {
                start: at(1, "Reciept"),
                end: at(1, "your records."),
            });
            assertUncertain(["Read data.payload[0] and meta.payload[1] before the loop ends."], {
                start: at(1, ".paylaod["),
                end: at(1, "loop ends."),
            });
        });
    });

    describe("unspaced scripts: characters, not words", () => {
        it("reads one Chinese character substituted, missing or added", () => {
            const cache = ["我们使用缓存策略来减少请求。"];
            assertCertain(cache, { start: at(1, "缓x策略"), end: at(1, "请求。") }, 1, 5, "缓存策略来减少请求。");
            const retry = ["系统会启用重试机制以防失败。"];
            assertCertain(retry, { start: at(1, "重机制"), end: at(1, "失败。") }, 1, 6, "重试机制以防失败。");
            assertCertain(retry, { start: at(1, "重试试机制"), end: at(1, "失败。") }, 1, 6, "重试机制以防失败。");
        });
        it("reads a Latin letter dropped next to CJK punctuation", () => {
            const lines = ["接口返回的格式为JSON。其余字段可选。"];
            assertCertain(lines, { start: at(1, "接口返回"), end: at(1, "为JSO。") }, 1, 1, "接口返回的格式为JSON。");
        });
        it("is uncertain when a second run of characters is as near", () => {
            assertUncertain(["我们使用缓存策略和缓冲策略来减少请求。"], {
                start: at(1, "缓x策略"),
                end: at(1, "请求。"),
            });
        });
    });

    describe("a number changed inside a boundary", () => {
        it("reads the one number that fits", () => {
            const lines = ["The timeout is 30 seconds by default."];
            assertCertain(
                lines,
                { start: at(1, "is 31 seconds"), end: at(1, "by default.") },
                1,
                13,
                "is 30 seconds by default.",
            );
        });
        it("is uncertain when another number fits too", () => {
            assertUncertain(["The timeout is 30 seconds, the retry is 45 seconds by default."], {
                start: at(1, "is 31 seconds"),
                end: at(1, "by default."),
            });
        });
        it("never reads a figure changed together with other characters", () => {
            assertUncertain(["The timeout is 30 seconds by default."], {
                start: at(1, "is 31 secnds"),
                end: at(1, "by default."),
            });
        });
    });

    describe("the minimal edit of the author's string", () => {
        it("never widens a start boundary to a mark the author did not write", () => {
            // The wrong certain repair of issue 32: `"\"enabld"` read as "`\"enabled", one character early.
            const lines = ['Set the key `"enabled": true` in settings.json to turn the feature on for every user.'];
            for (const str of ['"enabld', '"enabld"', '"enabld": true']) {
                const { certain } = repair(lines, { start: at(1, str), end: at(1, "every user.") });
                assert.equal(certain.length, 1, str);
                assert.equal(certain[0].range.start.column, lines[0].indexOf('"enabled'), str);
                assert.ok(certain[0].text.startsWith('"enabled"'), str);
            }
        });
        it("keeps the author's first character rather than the narrower reading", () => {
            const { certain } = repair(["系统会启用重试机制以防失败。"], {
                start: at(1, "重机制"),
                end: at(1, "失败。"),
            });
            assert.equal(certain[0]?.text, "重试机制以防失败。");
        });
        it("never adds the sentence's final punctuation to an end the author wrote without it", () => {
            const lines = ["Keep the Receipt number for your records."];
            assertCertain(
                lines,
                { start: at(1, "Keep"), end: at(1, "your recrds") },
                1,
                1,
                "Keep the Receipt number for your records",
            );
            const zh = ["日志分为四个级别，生产环境默认只记录警告以上。"];
            assertCertain(
                zh,
                { start: at(1, "生产环境"), end: at(1, "警告以千上") },
                1,
                10,
                "生产环境默认只记录警告以上",
            );
        });
        it("leaves out a mark the author added, never a mark of the document", () => {
            const lines = ["It ends here, and the rest is noise."];
            assertCertain(lines, { start: at(1, "It"), end: at(1, "here.") }, 1, 1, "It ends here");
        });
    });
});
