/**
 * A lock entry is a record, never an authority (docs/security.md, "The lock's trust model"):
 * `entryDoubt` trusts every entry `lock` writes, and no entry edited to hold another span's text.
 * The oracle is independent of the code under test: spans are cut from documents built line by line
 * here, and a forgery is a genuine entry of another span pasted into the fields a hand edit changes.
 */
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { resolveRef, SessionDocument } from "../../server/src/core";
import { entryDoubt, entryKey, type LockEntry, lockEntry, trustedEntries } from "../../server/src/core/lock";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const WORDS = [
    "orbit",
    "cache",
    "37%",
    "latency",
    "fell",
    "rose",
    "by",
    "a",
    "third",
    "é",
    "数据",
    "😀",
    "the",
    "cluster",
];

function random(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 2 ** 32;
    };
}

/** A document of distinct numbered lines (so every line's words are unique), and entries of some spans. */
function lockedDocument(next: () => number): { document: SessionDocument; entries: Map<string, LockEntry> } {
    const lines: string[] = [];
    const count = 3 + Math.floor(next() * 12);
    for (let i = 0; i < count; i++) {
        const words = Array.from(
            { length: 2 + Math.floor(next() * (next() < 0.2 ? 60 : 8)) },
            () => WORDS[Math.floor(next() * WORDS.length)],
        );
        lines.push(`L${i + 1}x ${words.join(" ")} E${i + 1}y`);
    }
    const content = lines.join("\n");
    const document = new SessionDocument("doc.md", content);
    const documentSha256 = sha256(content);
    const entries = new Map<string, LockEntry>();
    for (let k = 0; k < 4; k++) {
        const a = 1 + Math.floor(next() * count);
        const b = Math.min(count, a + Math.floor(next() * 3));
        const ref = { path: "doc.md", start: { line: a, str: `L${a}x` }, end: { line: b, str: `E${b}y` } };
        const resolved = resolveRef({ get: () => document }, ref);
        assert.ok(resolved.valid);
        const entry = lockEntry(ref, resolved, document, sha256, documentSha256);
        entries.set(entryKey("doc.md", entry.sha256), entry);
    }
    return { document, entries };
}

describe("lock entries are verified before they are trusted", () => {
    it("trusts every entry lock writes, and no entry holding another span's text (400 documents)", () => {
        const next = random(46);
        let genuine = 0;
        let forged = 0;
        let forgedWithoutDocument = 0;
        for (let round = 0; round < 400; round++) {
            const { document, entries } = lockedDocument(next);
            const now = () => document;
            for (const [key, entry] of entries) {
                assert.equal(entryDoubt(key, entry, sha256, now), undefined, JSON.stringify(entry));
                assert.equal(entryDoubt(key, entry, sha256), undefined);
                genuine++;
            }
            const list = [...entries];
            for (const [key, entry] of list) {
                for (const [otherKey, other] of list) {
                    if (other.sha256 === entry.sha256) continue;
                    const fields = { text: other.text, head: other.head, tail: other.tail };
                    const hand = { ...entry, ...fields, sha256: other.sha256, length: other.length };
                    // What the issue did (key kept), and the same with the key renamed to match.
                    assert.equal(entryDoubt(key, hand, sha256, now), "key");
                    assert.notEqual(entryDoubt(otherKey, hand, sha256, now), undefined, JSON.stringify(hand));
                    forged++;
                    // Without the document at its basis, only a range of the very same shape gets through.
                    const height = (e: LockEntry) => e.range.end.line - e.range.start.line;
                    const sameShape =
                        height(hand) === height(other) &&
                        hand.range.end.column === other.range.end.column &&
                        (height(hand) > 0 || hand.range.start.column === other.range.start.column);
                    // A text longer than the cap is known by its ends: only its last line's width is checked.
                    const long = other.text === undefined && hand.range.start.line !== hand.range.end.line;
                    if (!sameShape && !long) {
                        assert.notEqual(entryDoubt(otherKey, hand, sha256), undefined);
                        forgedWithoutDocument++;
                    }
                }
            }
        }
        assert.ok(
            genuine >= 1000 && forged >= 1000 && forgedWithoutDocument >= 500,
            `${genuine} ${forged} ${forgedWithoutDocument}`,
        );
    });

    it("a lock keeps only its trusted entries", () => {
        const { document, entries } = lockedDocument(random(7));
        const lock = { entries: Object.fromEntries(entries) };
        const [firstKey, first] = [...entries][0];
        const other = [...entries].find(([, e]) => e.sha256 !== first.sha256);
        assert.ok(other);
        const forged = {
            ...lock,
            entries: {
                ...lock.entries,
                [firstKey]: { ...first, text: other[1].text, sha256: other[1].sha256, length: other[1].length },
            },
        };
        const kept = trustedEntries(forged, sha256, () => document);
        assert.equal(Object.hasOwn(kept.entries, firstKey), false);
        assert.equal(Object.keys(kept.entries).length, Object.keys(lock.entries).length - 1);
        assert.equal(
            trustedEntries(lock, sha256, () => document),
            lock,
        );
    });
});
