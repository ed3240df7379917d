import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as fc from "fast-check";
import { getLanguageService, TextDocument } from "vscode-json-languageservice";
import { type Ref, resolveRef, Session, SessionDocument } from "../../server/src/core";
import {
    driftOf,
    isLockFileName,
    type LockFile,
    lockFileNameFor,
    matchLock,
    parseLock,
    quoteForPeople,
    relock,
    serializeLock,
    TEXT_CAP,
} from "../../server/src/core/lock";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const ref = (path: string, sl: number, ss: string, el: number, es: string): Ref => ({
    path,
    start: { line: sl, str: ss },
    end: { line: el, str: es },
});
const session = (docs: Record<string, string>) =>
    new Session(Object.entries(docs).map(([p, c]) => new SessionDocument(p, c)));
const sitesOf = (s: Session, refs: Ref[]) => refs.map((r) => ({ ref: r, resolution: resolveRef(s, r) }));

function lockOf(s: Session, refs: Ref[], previous?: LockFile, acceptChangedText = true) {
    return relock(previous, "a.sourcecheck.json", sitesOf(s, refs), s, sha256, { acceptChangedText });
}

const ARTICLE = "# Orbit\n\nOrbit 2.4 improves cold start by 37%.\nIt kept serving requests.\n";
const BENCH = "2.3.0: 820ms\n2.4.0: 517ms\ndelta: -37%\n";
const CLAIM = ref("article", 3, "improves", 3, "37%");
const SOURCE = ref("bench", 3, "delta", 3, "-37%");
const SERVING = ref("article", 4, "kept", 4, "requests");

describe("lock: entries", () => {
    it("records the text, its hash, context before and after, and the document's hash", () => {
        const { lock, statuses } = lockOf(session({ article: ARTICLE }), [CLAIM]);
        assert.deepEqual(statuses, ["locked"]);
        const [[key, entry]] = Object.entries(lock.entries);
        assert.equal(entry.text, "improves cold start by 37%");
        assert.equal(entry.sha256, sha256("improves cold start by 37%"));
        assert.equal(key, `article#${sha256("improves cold start by 37%").slice(0, 12)}`);
        assert.equal(entry.prefix, "# Orbit\n\nOrbit 2.4 ");
        assert.equal(entry.suffix, ".\nIt kept serving requests.\n");
        assert.equal(entry.documentSha256, sha256(ARTICLE));
        assert.deepEqual(entry.range, { start: { line: 3, column: 10 }, end: { line: 3, column: 36 } });
        assert.deepEqual(entry.ref, CLAIM);
    });

    it("keeps only the ends of a text over the cap, never splitting a surrogate pair", () => {
        const long = `START ${"😀".repeat(200)} END`;
        assert.ok(long.length > TEXT_CAP);
        const s = session({ doc: `before ${long} after` });
        const { lock } = lockOf(s, [ref("doc", 1, "START", 1, "END")]);
        const entry = Object.values(lock.entries)[0];
        assert.equal(entry.text, undefined);
        assert.equal(entry.length, long.length);
        assert.ok(long.startsWith(entry.head!) && long.endsWith(entry.tail!));
        for (const part of [entry.head!, entry.tail!, entry.prefix, entry.suffix]) {
            assert.ok(!/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(part), `cut pair in ${JSON.stringify(part)}`);
        }
        assert.equal(entry.sha256, sha256(long));
        // The same long text is recognised; one other character of the same length is not.
        assert.equal(
            driftOf({ key: "k", entry, how: "ref" }, resolveRef(s, ref("doc", 1, "START", 1, "END")), sha256),
            undefined,
        );
        const changed = session({ doc: `before ${long.replace("😀😀", "😀😁")} after` });
        const warning = driftOf(
            { key: "k", entry, how: "ref" },
            resolveRef(changed, ref("doc", 1, "START", 1, "END")),
            sha256,
        );
        assert.equal(warning?.code, "text-changed");
        assert.ok(warning?.lockedText.includes("…"));
    });
});

describe("lock: file text", () => {
    it("is 2-space JSON with one line per entry, LF and a final newline, the same whatever the order of the refs", () => {
        const s = session({ article: ARTICLE, bench: BENCH });
        const a = serializeLock(lockOf(s, [CLAIM, SOURCE, SERVING]).lock);
        const b = serializeLock(lockOf(s, [SERVING, SOURCE, CLAIM]).lock);
        assert.equal(a, b);
        assert.ok(a.endsWith("}\n") && !a.includes("\r"));
        assert.match(
            a,
            /^\{\n {2}"lockVersion": 1,\n {2}"annotationFile": "a\.sourcecheck\.json",\n {2}"entries": \{\n {4}"article#/,
        );
        // One line per entry: the frame's 6 lines and one per entry (3 here).
        assert.equal(a.split("\n").length - 1, 6 + 3);
        // Sorted by path, then position.
        const keys = Object.keys(JSON.parse(a).entries);
        assert.deepEqual(
            keys.map((k) => k.split("#")[0]),
            ["article", "article", "bench"],
        );
    });

    it("reads back what it wrote, and says what is wrong with a bad lock", () => {
        const text = serializeLock(lockOf(session({ article: ARTICLE }), [CLAIM]).lock);
        assert.equal(serializeLock(parseLock(text, "a.sourcecheck.json").lock!), text);
        assert.equal(parseLock("{", "a.sourcecheck.json").error?.code, "lock-invalid-json");
        const bad = JSON.parse(text);
        Object.values<{ sha256: string }>(bad.entries)[0].sha256 = "nope";
        const schema = parseLock(JSON.stringify(bad), "a.sourcecheck.json").error;
        assert.equal(schema?.code, "lock-schema");
        assert.match(schema!.pointer!, /^\/entries\/article#[0-9a-f]{12}\/sha256$/);
        assert.equal(
            parseLock(JSON.stringify({ lockVersion: 2, annotationFile: "a", entries: {} }), "a").error?.code,
            "lock-schema",
        );
        const foreign = parseLock(text, "b.sourcecheck.json").error;
        assert.equal(foreign?.code, "lock-foreign");
        assert.match(foreign!.message, /belongs to "a\.sourcecheck\.json"/);
    });

    it("names the sidecar beside the annotation file, and lock files are recognised", () => {
        assert.equal(lockFileNameFor("x.sourcecheck.json"), "x.sourcecheck.lock.json");
        assert.equal(lockFileNameFor("x.annotations.json"), "x.annotations.lock.json");
        assert.equal(lockFileNameFor("notes.json"), "notes.lock.json");
        assert.ok(isLockFileName("x.sourcecheck.lock.json") && isLockFileName("x.annotations.lock.json"));
        assert.ok(!isLockFileName("x.sourcecheck.json") && !isLockFileName("package-lock.json"));
    });

    it("agrees with the published JSON schema (validated by vscode-json-languageservice)", async () => {
        const schema = JSON.parse(
            readFileSync(join(__dirname, "../../../schemas/sourcecheck-lock.schema.json"), "utf8"),
        );
        const service = getLanguageService({});
        service.configure({ validate: true, schemas: [{ uri: "lock://schema", fileMatch: ["*.lock.json"], schema }] });
        const problems = async (text: string) => {
            const document = TextDocument.create("file:///x.sourcecheck.lock.json", "json", 1, text);
            return service.doValidation(document, service.parseJSONDocument(document));
        };
        const long = `START ${"x".repeat(400)} END`;
        const s = session({ article: ARTICLE, bench: BENCH, long: long });
        const text = serializeLock(lockOf(s, [CLAIM, SOURCE, ref("long", 1, "START", 1, "END")]).lock);
        assert.deepEqual(await problems(text), []);
        const bad = JSON.parse(text);
        delete Object.values<{ text?: string }>(bad.entries)[0].text;
        assert.ok((await problems(JSON.stringify(bad))).length > 0);
        assert.ok(parseLock(JSON.stringify(bad), "a.sourcecheck.json").error);
        bad.extra = 1;
        assert.ok((await problems(JSON.stringify(bad))).length > 0);
    });
});

describe("lock: keying and merging", () => {
    it("keeps untouched entries byte for byte when annotations are added or reordered", () => {
        const s = session({ article: ARTICLE, bench: BENCH });
        const before = lockOf(s, [CLAIM, SOURCE]).lock;
        const after = lockOf(s, [SERVING, SOURCE, CLAIM], before).lock;
        for (const [key, entry] of Object.entries(before.entries)) assert.deepEqual(after.entries[key], entry);
        assert.equal(Object.keys(after.entries).length, 3);
    });

    it("moves an entry with its ref when lines are inserted above and the ref follows", () => {
        const s1 = session({ article: ARTICLE });
        const before = lockOf(s1, [CLAIM]).lock;
        const s2 = session({ article: `new line\nanother\n${ARTICLE}` });
        const moved = ref("article", 5, "improves", 5, "37%");
        const matches = matchLock(before, sitesOf(s2, [moved]), sha256);
        assert.equal(matches[0]?.how, "text");
        assert.equal(driftOf(matches[0], resolveRef(s2, moved), sha256), undefined);
        const after = lockOf(s2, [moved], before).lock;
        assert.deepEqual(Object.keys(after.entries), Object.keys(before.entries));
        assert.deepEqual(Object.values(after.entries)[0].ref, moved);
        assert.equal(Object.values(after.entries)[0].range.start.line, 5);
    });

    it("reports drift on an untouched ref whose document changed, and never on an untouched text", () => {
        const s1 = session({ article: ARTICLE, bench: BENCH });
        const lock = lockOf(s1, [CLAIM, SERVING, SOURCE]).lock;
        const s2 = session({
            article: ARTICLE.replace("kept serving", "continued to serve"),
            bench: `inserted\n${BENCH}`,
        });
        const reworded = ref("article", 4, "It", 4, "requests");
        const sites = sitesOf(s2, [CLAIM, ref("article", 4, "continued", 4, "requests"), SOURCE]);
        const matches = matchLock(lock, sites, sha256);
        const warnings = sites.map((site, i) => driftOf(matches[i], site.resolution, sha256));
        assert.equal(warnings[0], undefined);
        // The second ref was rewritten on the same lines: matched by its lines, its text differs.
        assert.equal(matches[1]?.how, "lines");
        assert.equal(warnings[1]?.code, "text-changed");
        assert.equal(warnings[1]?.lockedText, "kept serving requests");
        assert.equal(warnings[1]?.text, "continued to serve requests");
        assert.equal(
            warnings[1]?.message,
            "the cited text changed since it was locked: [-kept serving-]{+continued to serve+} requests",
        );
        // The bench ref no longer resolves (line 3 is now "2.4.0: 517ms"): no drift claimed, entry kept by relock.
        assert.equal(sites[2].resolution.valid, false);
        assert.equal(warnings[2], undefined);
        const relocked = lockOf(s2, [CLAIM, reworded, SOURCE], lock);
        assert.deepEqual(relocked.statuses, ["locked", "locked", "kept"]);
        const benchKey = Object.keys(lock.entries).find((k) => k.startsWith("bench#"))!;
        assert.deepEqual(relocked.lock.entries[benchKey], lock.entries[benchKey]);
    });

    it("a ref left one line off by an insertion above, onto its neighbour's text, is text-changed", () => {
        const doc = "The share was 37% last year.\nThe share was 42% this year.\n";
        const cited = ref("d", 2, "The", 2, "year.");
        const lock = lockOf(session({ d: doc }), [cited]).lock;
        const s2 = session({ d: `A new first line.\n${doc}` });
        const [match] = matchLock(lock, sitesOf(s2, [cited]), sha256);
        assert.equal(match?.how, "ref");
        const warning = driftOf(match, resolveRef(s2, cited), sha256);
        assert.equal(warning?.lockedText, "The share was 42% this year.");
        assert.equal(warning?.text, "The share was 37% last year.");
    });

    it("drops entries of refs gone from the file; identical refs share one entry", () => {
        const s = session({ article: ARTICLE, bench: BENCH });
        const before = lockOf(s, [CLAIM, SOURCE]).lock;
        const after = lockOf(s, [CLAIM, CLAIM], before);
        assert.equal(Object.keys(after.lock.entries).length, 1);
        assert.equal(after.keys[0], after.keys[1]);
    });

    it("without accepting, a changed text keeps its locked entry (following the ref); the lock command accepts it", () => {
        const s1 = session({ article: ARTICLE });
        const lock = lockOf(s1, [SERVING]).lock;
        const s2 = session({ article: ARTICLE.replace("serving", "answering") });
        const kept = lockOf(s2, [SERVING], lock, false);
        assert.deepEqual(kept.statuses, ["changed"]);
        assert.deepEqual(kept.lock, lock);
        const accepted = lockOf(s2, [SERVING], lock, true);
        assert.deepEqual(accepted.statuses, ["locked"]);
        assert.equal(Object.values(accepted.lock.entries)[0].text, "kept answering requests");
        assert.notDeepEqual(Object.keys(accepted.lock.entries), Object.keys(lock.entries));
    });

    it("distinct spans of the same text get distinct keys", () => {
        const s = session({ d: "one 37% two\nthree 37% four\n" });
        const { lock, keys } = lockOf(s, [ref("d", 1, "37%", 1, "37%"), ref("d", 2, "37%", 2, "37%")]);
        assert.equal(Object.keys(lock.entries).length, 2);
        assert.notEqual(keys[0], keys[1]);
        assert.ok(keys[1]!.endsWith("~2"));
    });

    it("property: the lock does not depend on the order of the refs, and an unchanged relock is a no-op", () => {
        let cases = 0;
        const words = ["alpha", "beta", "gamma", "delta", "37%", "x"];
        fc.assert(
            fc.property(
                fc.array(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }), {
                    minLength: 1,
                    maxLength: 6,
                }),
                fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { minLength: 1, maxLength: 8 }),
                fc.nat(),
                (lines, picks, seed) => {
                    cases++;
                    const content = lines.map((l) => l.join(" ")).join("\n");
                    const s = session({ d: content });
                    const refs = picks.map(([l, a, b]) => {
                        const line = lines[l % lines.length];
                        return ref(
                            "d",
                            (l % lines.length) + 1,
                            line[a % line.length],
                            (l % lines.length) + 1,
                            line[b % line.length],
                        );
                    });
                    const shuffled = [...refs].sort(
                        (x, y) => ((refIndex(refs, x) * 7919 + seed) % 13) - ((refIndex(refs, y) * 7919 + seed) % 13),
                    );
                    const a = lockOf(s, refs);
                    const b = lockOf(s, shuffled);
                    const text = serializeLock(a.lock);
                    // Oracle: the set of resolved texts, independent of keys and order.
                    const expected = new Set(
                        sitesOf(s, refs).flatMap((x) => (x.resolution.valid ? [x.resolution.text] : [])),
                    );
                    const locked = new Set(Object.values(a.lock.entries).map((e) => e.text));
                    assert.deepEqual(locked, expected);
                    assert.equal(serializeLock(b.lock), text);
                    assert.equal(serializeLock(lockOf(s, refs, a.lock).lock), text);
                },
            ),
            { numRuns: 200 },
        );
        assert.equal(cases, 200);
    });
});

describe("lock: messages", () => {
    it("escapes control and bidi characters of locked text", () => {
        assert.equal(quoteForPeople("a\u001b[31mb\u202ec"), '"a\\u001b[31mb\\u202ec"');
        assert.equal(quoteForPeople('say "hi"'), '"say \\"hi\\""');
        assert.ok(quoteForPeople("x".repeat(500)).length < 100);
    });
});

function refIndex(refs: Ref[], r: Ref): number {
    return refs.indexOf(r);
}
