import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
    citeQuote,
    explainRepair,
    type Ref,
    resolveInDocument,
    resolveRef,
    Session,
    SessionDocument,
} from "../../server/src/core";
import { entryKey, LOCK_VERSION, type LockFile, lockEntry, serializeLock } from "../../server/src/core/lock";
import { hasMeaningfulWord } from "../../server/src/core/words";
import { runCli } from "./cliRun";
import { lockOf, sha256 } from "./repairDrift";

const PATH = "notes.md";
const doc = (lines: string[]) => new SessionDocument(PATH, lines.join("\n"));
const LINES = [
    "Release notes for Orbit.",
    "Offline sync now resumes after the client is reconnected.",
    "Faster cold start: the runtime loads plugins lazily.",
    "Peak memory fell by a third after the plugin cache was trimmed.",
    "Windows support is planned for a later release.",
];

function refTo(document: SessionDocument, quote: string): Ref {
    const result = citeQuote(document, quote);
    assert.ok(result.ok, `cannot cite ${quote}`);
    return result.ref;
}

describe("repair from a lock: the locked text found again", () => {
    it("finds the locked text once, and says where", () => {
        const before = doc(LINES);
        const ref = refTo(before, "the runtime loads plugins lazily.");
        const locked = lockOf(before, ref);
        assert.ok(locked);
        const after = doc(["New line.", "Another.", "And a third.", ...LINES]);
        const { candidates } = explainRepair(ref, new Session([after]), { locked, sha256 });
        assert.equal(candidates[0]?.certain, true);
        assert.equal(candidates[0].text, "the runtime loads plugins lazily.");
        assert.equal(candidates[0].evidenceKind, "lock");
        assert.equal(candidates[0].evidence, "the locked text was found on line 6");
    });

    it("repairs a ref that still resolves, but to other text than its locked text", () => {
        const before = doc(["Plugins load lazily.", "Caches are trimmed.", "Sync resumes."]);
        const ref: Ref = { path: PATH, start: { line: 2, str: "Caches" }, end: { line: 2, str: "." } };
        const locked = lockOf(before, ref);
        assert.ok(locked);
        // A line inserted above: line 2 is now another sentence ending in "." (and starting with "Caches").
        const after = doc(["Plugins load lazily.", "Caches grow.", "Caches are trimmed.", "Sync resumes."]);
        assert.equal(resolveInDocument(after, ref).valid, true);
        const { candidates } = explainRepair(ref, new Session([after]), { locked, sha256 });
        assert.equal(candidates[0]?.certain, true);
        assert.equal(candidates[0].ref.start.line, 3);
        assert.equal(candidates[0].text, "Caches are trimmed.");
        // The same ref on its locked text needs nothing.
        assert.deepEqual(explainRepair(ref, new Session([before]), { locked, sha256 }).candidates, []);
    });

    it("decides between two copies by the context as locked, and not between copies with the same context", () => {
        const quote = "the runtime loads plugins lazily.";
        const before = doc(LINES);
        const ref = refTo(before, quote);
        const locked = lockOf(before, ref);
        assert.ok(locked);
        // The cited line copied further down, among other lines: the original keeps its context.
        const copied = doc(["Intro.", ...LINES, "Elsewhere: the runtime loads plugins lazily.", "The end."]);
        const decided = explainRepair(ref, new Session([copied]), { locked, sha256 }).candidates;
        assert.equal(decided[0]?.certain, true);
        assert.equal(decided[0].range.start.line, 4);
        assert.match(decided[0].evidence ?? "", /occurs 2 times; only on line 4 is its context as locked/);
        // The whole document repeated: both copies have the locked context, nothing decides.
        const twice = doc(["Intro.", ...LINES, ...LINES]);
        const undecided = explainRepair(ref, new Session([twice]), { locked, sha256 }).candidates;
        assert.ok(undecided.length >= 2);
        assert.ok(undecided.every((c) => !c.certain));
    });

    it("finds a text changed inside by its context, repairs it and says it changed", () => {
        const before = doc(LINES);
        const ref: Ref = { path: PATH, start: { line: 4, str: "Peak memory" }, end: { line: 4, str: "trimmed." } };
        const locked = lockOf(before, ref);
        assert.ok(locked);
        const changed = [...LINES];
        changed[3] = "Peak memory fell by a half after the plugin cache was trimmed.";
        const after = doc(["Intro.", "More.", ...changed]);
        const { candidates } = explainRepair(ref, new Session([after]), { locked, sha256 });
        assert.equal(candidates[0]?.certain, true);
        assert.equal(candidates[0].ref.start.line, 6);
        assert.notEqual(candidates[0].text, locked.text);
        assert.match(candidates[0].evidence ?? "", /changed .* on line 6; it stays text-changed/);
    });

    it("repairs nothing when the locked text is gone, and says where it was last seen", () => {
        const before = doc(LINES);
        const ref = refTo(before, "Windows support is planned");
        const locked = lockOf(before, ref);
        assert.ok(locked);
        const after = doc(LINES.slice(0, 4));
        const explained = explainRepair(ref, new Session([after]), { locked, sha256 });
        assert.equal(explained.candidates.length, 0);
        assert.equal(explained.note, 'the cited text is no longer in "notes.md"; it was last seen on line 5');
    });

    it("a short text found once far from its locked context is not certain (its line may be gone)", () => {
        const before = doc(["The rate fell 37% last year.", "Other things happened."]);
        const ref: Ref = { path: PATH, start: { line: 1, str: "37%" }, end: { line: 1, str: "37%" } };
        const locked = lockOf(before, ref);
        assert.ok(locked);
        const after = doc(["Other things happened.", "A different sentence with 37% in it, about costs."]);
        const { candidates } = explainRepair(ref, new Session([after]), { locked, sha256 });
        assert.ok(candidates.every((c) => !c.certain));
    });
});

describe("sourcecheck repair with a lock beside the file", () => {
    const SOURCE = [
        "# Field notes",
        "On the first day the team measured a 42% reduction of cold-start time.",
        "Most of the gain came from loading plugins lazily.",
        "On the second day the cache was trimmed and memory fell by a third.",
        "The sync engine resumed cleanly after every reconnect.",
        "On average the build took 3 minutes, down from 5.",
        "Reviewers kept serving as the last line of defence.",
        "The rollout reached all regions by Friday.",
    ];
    const QUOTES = [
        "On the first day the team measured a 42% reduction of",
        "Most of the gain",
        "the cache was trimmed",
        "The sync engine resumed cleanly",
        "On average the build took 3 minutes",
        "Reviewers kept serving",
        "reached all regions",
    ];

    function workspace(): { dir: string; refs: Ref[]; texts: string[] } {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-repair-lock-"));
        fs.writeFileSync(path.join(dir, "notes.md"), SOURCE.join("\n"));
        fs.writeFileSync(path.join(dir, "answer.md"), "The team cut cold start and memory.\n");
        const document = new SessionDocument("notes.md", SOURCE.join("\n"));
        const refs = QUOTES.map((q) => refTo(document, q));
        // cite writes short readable boundaries: a few words each, one of them meaningful ("Most" alone is not).
        for (const ref of refs)
            for (const str of [ref.start.str, ref.end.str])
                assert.ok(str.split(" ").length <= 4 && hasMeaningfulWord(str), JSON.stringify(ref));
        const annotations = {
            annotations: refs.map((ref) => ({
                claim: { path: "answer.md", start: { line: 1, str: "The team" }, end: { line: 1, str: "memory." } },
                sources: [{ ...ref, polarity: "supports", confidence: 0.9 }],
            })),
        };
        fs.writeFileSync(path.join(dir, "answer.sourcecheck.json"), `${JSON.stringify(annotations, null, 2)}\n`);
        const entries: LockFile["entries"] = {};
        const hash = sha256(document.content);
        for (const ref of refs) {
            const resolved = resolveInDocument(document, ref);
            assert.ok(resolved.valid);
            const entry = lockEntry(ref, resolved, document, sha256, hash);
            entries[entryKey(ref.path, entry.sha256)] = entry;
        }
        const lock: LockFile = { lockVersion: LOCK_VERSION, annotationFile: "answer.sourcecheck.json", entries };
        fs.writeFileSync(path.join(dir, "answer.sourcecheck.lock.json"), serializeLock(lock));
        return { dir, refs, texts: QUOTES };
    }

    it("repairs 7 of 7 cite-written refs after three lines are inserted at the top, naming the lock", () => {
        const { dir, texts } = workspace();
        fs.writeFileSync(
            path.join(dir, "notes.md"),
            `On Monday: new intro.\nOn Tuesday: more.\nOn Wednesday: the end of it.\n${SOURCE.join("\n")}`,
        );
        const json = runCli(["repair", "--json", "answer.sourcecheck.json"], { cwd: dir });
        const report = JSON.parse(json.stdout);
        const certain = report.repairs.filter((r: { certain: boolean }) => r.certain);
        assert.equal(certain.length, 7, json.stdout);
        for (const r of certain) {
            assert.equal(r.evidenceKind, "lock");
            assert.match(r.evidence, /^the locked text was found on line \d+$/);
            for (const field of ["annotation", "role", "pointer", "reason", "certain", "before", "after", "text"])
                assert.ok(field in r, field);
        }
        const run = runCli(["repair", "--write", "answer.sourcecheck.json"], { cwd: dir });
        assert.equal(run.status, 0, run.stdout);
        assert.match(run.stdout, /\(the locked text was found on line 5\)/);
        const written = JSON.parse(fs.readFileSync(path.join(dir, "answer.sourcecheck.json"), "utf8"));
        const now = new Session([new SessionDocument("notes.md", fs.readFileSync(path.join(dir, "notes.md"), "utf8"))]);
        written.annotations.forEach((a: { sources: Ref[] }, i: number) => {
            const r = resolveRef(now, a.sources[0]);
            assert.ok(r.valid && r.text === texts[i], `source ${i + 1}: ${JSON.stringify(r)}`);
        });
    });

    it("leaves a ref whose text was deleted, with a message and a next step", () => {
        const { dir } = workspace();
        fs.writeFileSync(path.join(dir, "notes.md"), SOURCE.filter((l) => !l.startsWith("Reviewers")).join("\n"));
        const run = runCli(["repair", "--json", "answer.sourcecheck.json"], { cwd: dir });
        const report = JSON.parse(run.stdout);
        // Annotation 6 (numbered from 1, docs/contract.md "Numbers"): its source's sentence was deleted.
        const left = report.remaining.find((r: { annotation: number }) => r.annotation === 6);
        assert.ok(left, run.stdout);
        assert.equal(left.message, 'the cited text is no longer in "notes.md"; it was last seen on line 7');
        assert.deepEqual(left.next, { action: "cite-again", path: "notes.md", line: 7 });
        assert.ok(
            !report.repairs.some((r: { annotation: number; certain: boolean }) => r.annotation === 6 && r.certain),
        );
        const text = runCli(["repair", "answer.sourcecheck.json"], { cwd: dir });
        assert.match(
            text.stdout,
            /not repaired \(.*\): the cited text is no longer in "notes.md"; it was last seen on line 7; next: quote the text meant near line 7 of notes.md again with `sourcecheck cite notes.md QUOTE`/,
        );
    });

    it("refuses a lock that is not valid JSON (exit 2), never a silent fallback", () => {
        const { dir } = workspace();
        fs.writeFileSync(path.join(dir, "answer.sourcecheck.lock.json"), "{ not json");
        const run = runCli(["repair", "answer.sourcecheck.json"], { cwd: dir });
        assert.equal(run.status, 2);
        assert.match(run.stderr, /lock-invalid-json/);
    });
});
