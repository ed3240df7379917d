import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { type Ref, resolveRef, Session, SessionDocument } from "../../server/src/core";
import {
    driftOf,
    entryKey,
    type LockFile,
    lockAnnotationText,
    matchLock,
    refIdentity,
    relock,
    wordDiff,
} from "../../server/src/core/lock";
import { escapeMarkdown, renderDiff } from "../../server/src/features/hover";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const ref = (path: string, sl: number, ss: string, el: number, es: string): Ref => ({
    path,
    start: { line: sl, str: ss },
    end: { line: el, str: es },
});
const session = (docs: Record<string, string>) =>
    new Session(Object.entries(docs).map(([p, c]) => new SessionDocument(p, c)));
const sitesOf = (s: Session, refs: Ref[]) => refs.map((r) => ({ ref: r, resolution: resolveRef(s, r) }));

const ARTICLE = "# Orbit\n\nOrbit 2.4 improves cold start by 37%.\nIt kept serving requests.\n";
const CLAIM = ref("article.md", 3, "improves", 3, "37%");
const SERVING = ref("article.md", 4, "kept", 4, "requests");

describe("lock in the editor: accepting one ref", () => {
    it("accepts the changed text of the chosen ref only; the other changed ref keeps its locked text", () => {
        const s1 = session({ "article.md": ARTICLE });
        const lock = relock(undefined, "a.sourcecheck.json", sitesOf(s1, [CLAIM, SERVING]), s1, sha256, {
            acceptChangedText: true,
        }).lock;
        const s2 = session({
            "article.md": ARTICLE.replace("by 37%", "by almost 37%").replace("serving", "answering"),
        });
        const result = relock(lock, "a.sourcecheck.json", sitesOf(s2, [CLAIM, SERVING]), s2, sha256, {
            acceptChangedText: (site) => site === 1,
        });
        assert.deepEqual(result.statuses, ["changed", "locked"]);
        const texts = Object.values(result.lock.entries).map((e) => e.text);
        assert.ok(texts.includes("improves cold start by 37%"), "the claim keeps its locked text");
        assert.ok(texts.includes("kept answering requests"), "the accepted ref has its new text");
        assert.ok(!texts.includes("kept serving requests"), "its old entry is gone");
    });

    it("lockAnnotationText takes a predicate on the sites (the editor's accept: a ref and those identical to it)", () => {
        const source = (r: Ref) => ({ ...r, polarity: "supports", confidence: 0.9 });
        const text = JSON.stringify({
            annotations: [
                { claim: CLAIM, sources: [source(SERVING)] },
                { claim: SERVING, sources: [source(CLAIM)] },
            ],
        });
        const s1 = session({ "article.md": ARTICLE });
        const first = lockAnnotationText(text, "a.sourcecheck.json", s1, undefined, sha256);
        assert.ok(first.content !== undefined, JSON.stringify(first.schemaErrors));
        const s2 = session({
            "article.md": ARTICLE.replace("serving", "answering").replace("by 37%", "by almost 37%"),
        });
        const accepted = lockAnnotationText(
            text,
            "a.sourcecheck.json",
            s2,
            first.lock,
            sha256,
            (site) => refIdentity(site.ref) === refIdentity(SERVING),
        );
        assert.ok(accepted.content !== undefined);
        // The accepted ref (a claim and, identical, a source: one entry) is locked; the other text stays as locked.
        assert.equal(accepted.locked, 2);
        assert.deepEqual(
            accepted.notLocked.map((n) => [n.pointer, n.code, n.kept]),
            [
                ["/annotations/0/claim", "text-changed", true],
                ["/annotations/1/sources/0", "text-changed", true],
            ],
        );
        const texts = Object.values((JSON.parse(accepted.content) as LockFile).entries).map((e) => e.text);
        assert.deepEqual(texts.sort(), ["improves cold start by 37%", "kept answering requests"]);
    });
});

describe("lock in the editor: refs moved by following edits and file moves keep their entries", () => {
    it("a ref moved down by lines inserted above (as follow-edits moves it) keeps its key, updated in place", () => {
        const s1 = session({ "article.md": ARTICLE });
        const lock = relock(undefined, "a.sourcecheck.json", sitesOf(s1, [CLAIM]), s1, sha256, {
            acceptChangedText: false,
        }).lock;
        const s2 = session({ "article.md": `one\ntwo\n${ARTICLE}` });
        const followed = ref("article.md", 5, "improves", 5, "37%");
        const result = relock(lock, "a.sourcecheck.json", sitesOf(s2, [followed]), s2, sha256, {
            acceptChangedText: false,
        });
        assert.deepEqual(Object.keys(result.lock.entries), Object.keys(lock.entries));
        const entry = Object.values(result.lock.entries)[0];
        assert.deepEqual(entry.ref, followed);
        assert.equal(entry.range.start.line, 5);
    });

    it("a document renamed with its refs following: matched as moved, no drift, re-keyed under the new path", () => {
        const s1 = session({ "article.md": ARTICLE });
        const lock: LockFile = relock(
            undefined,
            "a.sourcecheck.json",
            sitesOf(s1, [CLAIM, CLAIM, SERVING]),
            s1,
            sha256,
            {
                acceptChangedText: true,
            },
        ).lock;
        const s2 = session({ "docs/article.md": ARTICLE });
        const moved = [
            { ...CLAIM, path: "docs/article.md" },
            { ...CLAIM, path: "docs/article.md" },
            { ...SERVING, path: "docs/article.md" },
        ];
        const sites = sitesOf(s2, moved);
        const matches = matchLock(lock, sites, sha256);
        assert.deepEqual(
            matches.map((m) => m?.how),
            ["moved", "moved", "moved"],
            "identical refs share their entry",
        );
        for (const [i, site] of sites.entries()) assert.equal(driftOf(matches[i], site.resolution, sha256), undefined);
        const relocked = relock(lock, "a.sourcecheck.json", sites, s2, sha256, { acceptChangedText: false });
        assert.deepEqual(relocked.statuses, ["locked", "locked", "locked"]);
        const keys = Object.keys(relocked.lock.entries);
        assert.equal(keys.length, 2);
        for (const key of keys) assert.ok(key.startsWith("docs/article.md#"), key);
        assert.ok(keys.includes(entryKey("docs/article.md", sha256("improves cold start by 37%"))));
    });

    it("a moved document's text is never matched to another document still cited (no guess between two)", () => {
        const s1 = session({ "a.md": "same words here\n", "b.md": "same words here\n" });
        const refA = ref("a.md", 1, "same", 1, "here");
        const refB = ref("b.md", 1, "same", 1, "here");
        const lock = relock(undefined, "x.sourcecheck.json", sitesOf(s1, [refA, refB]), s1, sha256, {
            acceptChangedText: true,
        }).lock;
        // Both documents renamed: two entries with that text, neither cited: undecided, so unmatched.
        const s2 = session({ "c.md": "same words here\n", "d.md": "same words here\n" });
        const matches = matchLock(
            lock,
            sitesOf(s2, [
                { ...refA, path: "c.md" },
                { ...refB, path: "d.md" },
            ]),
            sha256,
        );
        assert.deepEqual(
            Array.from(matches, (m) => m?.how),
            [undefined, undefined],
        );
    });
});

describe("lock in the editor: the hover's word diff", () => {
    it("names the removed and the added words in reading order", () => {
        const pieces = wordDiff("It kept serving requests.", "It continued to serve requests.");
        assert.ok(pieces);
        const removed = pieces.filter((p) => p.op === "removed").map((p) => p.text.trim());
        const added = pieces.filter((p) => p.op === "added").map((p) => p.text.trim());
        assert.deepEqual(removed.join(" ").split(/\s+/), ["kept", "serving"]);
        assert.deepEqual(added.join(" ").split(/\s+/), ["continued", "to", "serve"]);
        // Reassembling the pieces gives each text back (the oracle: the inputs).
        assert.equal(
            pieces
                .filter((p) => p.op !== "added")
                .map((p) => p.text)
                .join(""),
            "It kept serving requests.",
        );
        assert.equal(
            pieces
                .filter((p) => p.op !== "removed")
                .map((p) => p.text)
                .join(""),
            "It continued to serve requests.",
        );
        assert.equal(wordDiff("x".repeat(5000), "y"), undefined, "too long to diff");
    });

    it("renders as one escaped Markdown line: struck-through removals, bold additions", () => {
        const line = renderDiff(wordDiff("cut by 37%", "cut by 42%")!);
        assert.equal(line, "cut by ~~37~~ **42**\\%");
        // Locked text is data: Markdown, HTML and control characters cannot act.
        const hostile = renderDiff(wordDiff("a", "<img src=x onerror=alert(1)> **b** [l](http://x) \u202e\u001b")!);
        assert.ok(!/(^|[^\\])</.test(hostile), hostile);
        assert.ok(hostile.includes("\\<img"), hostile);
        assert.ok(hostile.includes("\\*\\*b\\*\\*"), hostile);
        assert.ok(hostile.includes("\\[l\\]\\(http\\:"), hostile);
        assert.ok(!hostile.includes("\u202e") && !hostile.includes("\u001b"), "bidi and escape characters act no more");
        assert.ok(hostile.includes("\\\\u202e"), hostile);
        assert.equal(escapeMarkdown("a_b`c"), "a\\_b\\`c");
    });
});
