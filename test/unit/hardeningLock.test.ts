/**
 * The lock as a CI gate (docs/security.md, "The lock's trust model"): after a cited sentence changed,
 * no one-line edit of the lock's basis makes `check --locked` pass, and `lock` keeps a changed text
 * out of the lock unless it is accepted.
 */
import * as assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { explainRepair, type Ref, Session, SessionDocument } from "../../server/src/core";
import { runCli } from "./cliRun";
import { lockOf, sha256 as lockSha256 } from "./repairDrift";

const DOC = "# Orbit\n\nOrbit 2.4 improves cold start by 37%.\nIt kept serving requests.\n";
const CHANGED = DOC.replace("kept serving requests", "stopped serving requests");
const ANNOTATIONS = {
    annotations: [
        {
            claim: { path: "doc.md", start: { line: 3, str: "improves" }, end: { line: 3, str: "37%" } },
            sources: [
                {
                    path: "doc.md",
                    start: { line: 4, str: "It" },
                    end: { line: 4, str: "requests" },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
    ],
};
const FILE = "a.sourcecheck.json";
const LOCK = "a.sourcecheck.lock.json";
const sha256 = (text: string) => crypto.createHash("sha256").update(text, "utf8").digest("hex");

describe("hardening: a lock the gate can trust", () => {
    const dirs: string[] = [];
    after(() => {
        for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Locked over DOC, then the cited sentence changed: the gate must fail from here on. */
    function drifted(): string {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-lockgate-"));
        dirs.push(dir);
        fs.writeFileSync(path.join(dir, "doc.md"), DOC);
        fs.writeFileSync(path.join(dir, FILE), JSON.stringify(ANNOTATIONS, null, 2));
        const locked = runCli(["lock", FILE], { cwd: dir });
        assert.equal(locked.status, 0, locked.stdout + locked.stderr);
        fs.writeFileSync(path.join(dir, "doc.md"), CHANGED);
        return dir;
    }
    const gate = (dir: string) => runCli(["check", "--locked", FILE], { cwd: dir });
    const editLock = (dir: string, edit: (text: string) => string) => {
        const before = fs.readFileSync(path.join(dir, LOCK), "utf8");
        const after = edit(before);
        assert.notEqual(after, before, "the forgery changed the lock");
        fs.writeFileSync(path.join(dir, LOCK), after);
    };
    const HASH_LINE = `      "doc.md": ${JSON.stringify(sha256(DOC))}`;

    it("the untouched lock fails the gate with text-changed (the baseline each forgery must not beat)", () => {
        const dir = drifted();
        const run = gate(dir);
        assert.equal(run.status, 1, run.stdout);
        assert.match(run.stdout, /text-changed/);
    });

    const forgeries: [string, (text: string) => string][] = [
        ["the basis hash of the document set to the new text's hash", (t) => t.replace(sha256(DOC), sha256(CHANGED))],
        ["the document's line of the basis deleted", (t) => t.replace(`${HASH_LINE}\n`, "")],
        [
            "the document's key in the basis renamed to ./doc.md",
            (t) => t.replace('      "doc.md":', '      "./doc.md":'),
        ],
        [
            "the document's line replaced by another path's",
            (t) => t.replace('      "doc.md":', '      "other.md":').replace(sha256(DOC), sha256(CHANGED)),
        ],
    ];
    for (const [name, forge] of forgeries) {
        it(`forgery: ${name}: check --locked still fails, and lock does not bless the stale entry`, () => {
            const dir = drifted();
            editLock(dir, forge);
            const run = gate(dir);
            assert.equal(run.status, 1, `${name}: ${run.stdout}${run.stderr}`);
            assert.match(run.stdout, /text-changed/);
            // `lock` without --accept keeps the locked text (and says so, exit 1); the gate still fails.
            const relock = runCli(["lock", FILE], { cwd: dir });
            assert.equal(relock.status, 1, relock.stdout);
            assert.match(relock.stdout, /text-changed: .*lock --accept accepts the new text/);
            assert.ok(fs.readFileSync(path.join(dir, LOCK), "utf8").includes("It kept serving requests"));
            assert.equal(gate(dir).status, 1);
        });
    }

    it("lock keeps a changed text unless --accept is given, and says how many it accepted", () => {
        const dir = drifted();
        const kept = runCli(["lock", "--json", FILE], { cwd: dir });
        assert.equal(kept.status, 1);
        const [result] = JSON.parse(kept.stdout).files;
        assert.equal(result.accepted, 0);
        assert.deepEqual(
            result.notLocked.map((n: { code: string; kept: boolean }) => [n.code, n.kept]),
            [["text-changed", true]],
        );
        assert.equal(gate(dir).status, 1);
        const accepted = runCli(["lock", "--accept", FILE], { cwd: dir });
        assert.equal(accepted.status, 0, accepted.stdout);
        assert.match(
            accepted.stdout,
            /a\.sourcecheck\.lock\.json: 2 of 2 refs locked, 1 changed text accepted \(exit 0\)/,
        );
        assert.ok(fs.readFileSync(path.join(dir, LOCK), "utf8").includes("It stopped serving requests"));
        assert.equal(gate(dir).status, 0);
    });

    it("--accept N,M accepts the changed texts of those annotations only (numbers from 1); --accept alone all", () => {
        const dir = drifted();
        // Annotation 2 does not exist: annotation 1's changed text is kept.
        const other = runCli(["lock", "--json", "--accept", "2", FILE], { cwd: dir });
        assert.equal(other.status, 1, other.stdout);
        assert.equal(JSON.parse(other.stdout).files[0].accepted, 0);
        assert.ok(fs.readFileSync(path.join(dir, LOCK), "utf8").includes("It kept serving requests"));
        const zero = runCli(["lock", "--accept=0", FILE], { cwd: dir });
        assert.equal(zero.status, 2, zero.stdout);
        assert.match(zero.stderr, /annotations count from 1/);
        const first = runCli(["lock", "--json", "--accept", "2,1", FILE], { cwd: dir });
        assert.equal(first.status, 0, first.stdout);
        assert.equal(JSON.parse(first.stdout).files[0].accepted, 1);
        assert.ok(fs.readFileSync(path.join(dir, LOCK), "utf8").includes("It stopped serving requests"));
        assert.equal(gate(dir).status, 0);
    });
});

describe("hardening: a crafted lock entry cannot make repair certain", () => {
    const dirs: string[] = [];
    after(() => {
        for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });
    const TEXT = [
        "# Orbit",
        "",
        "Orbit 2.4 improves cold start by 37%.",
        "It kept serving requests during the upgrade.",
        "It did not keep serving requests during the upgrade.",
        "",
    ].join("\n");
    const source = (line: number, start: string, polarity: string) => ({
        path: "doc.md",
        start: { line, str: start },
        end: { line, str: "upgrade." },
        polarity,
        confidence: 0.9,
    });
    const INPUT = {
        annotations: [
            {
                claim: { path: "doc.md", start: { line: 3, str: "improves" }, end: { line: 3, str: "37%" } },
                sources: [source(4, "It kept", "supports"), source(5, "It did", "refutes")],
            },
        ],
    };

    it("an entry holding the refuting sentence's text for the supports ref: repair --write leaves it, and the gate fails", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-lockcraft-"));
        dirs.push(dir);
        fs.writeFileSync(path.join(dir, "doc.md"), TEXT);
        fs.writeFileSync(path.join(dir, FILE), JSON.stringify(INPUT, null, 2));
        assert.equal(runCli(["lock", FILE], { cwd: dir }).status, 0);
        const lock = JSON.parse(fs.readFileSync(path.join(dir, LOCK), "utf8"));
        const keyOf = (line: number) =>
            Object.keys(lock.entries).find((key) => lock.entries[key].ref.start.line === line) as string;
        // The supports ref's entry now says it meant the refuting sentence (what a hostile lock edit does).
        lock.entries[keyOf(4)] = { ...lock.entries[keyOf(5)], ref: lock.entries[keyOf(4)].ref };
        delete lock.basis;
        fs.writeFileSync(path.join(dir, LOCK), JSON.stringify(lock, null, 2));
        assert.equal(runCli(["check", "--locked", FILE], { cwd: dir }).status, 1);

        const repair = runCli(["repair", "--write", "--json", FILE], { cwd: dir });
        const after = JSON.parse(fs.readFileSync(path.join(dir, FILE), "utf8"));
        assert.equal(after.annotations[0].sources[0].start.line, 4, `the supports ref was moved: ${repair.stdout}`);
        const report = JSON.parse(repair.stdout);
        const moves = (report.files?.[0] ?? report).repairs ?? [];
        for (const move of moves) {
            if (move.after?.start?.line === 5) assert.equal(move.certain, false, JSON.stringify(move));
        }
        const gate = runCli(["check", "--locked", FILE], { cwd: dir });
        assert.equal(gate.status, 1, gate.stdout);
        // The crafted entry disagrees with the document it names: it is not trusted, and the ref counts as unlocked.
        assert.match(gate.stdout, /unlocked: its lock entry .* does not agree with the document it names/);
    });

    it("the issue's forgery: only the supports entry's text, sha256 and length changed, then a line inserted at the top", () => {
        // Sentences of 64 characters or more: found once, the locked text alone is evidence (locked.ts).
        const LONG = TEXT.replace(/the upgrade\./g, "the whole of the rolling upgrade of the cluster.");
        const end = (ref: { end: { str: string } }) => Object.assign(ref, { end: { ...ref.end, str: "cluster." } });
        const input = structuredClone(INPUT);
        for (const ref of input.annotations[0].sources) end(ref);
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-lockcraft-"));
        dirs.push(dir);
        fs.writeFileSync(path.join(dir, "doc.md"), LONG);
        fs.writeFileSync(path.join(dir, FILE), JSON.stringify(input, null, 2));
        assert.equal(runCli(["lock", FILE], { cwd: dir }).status, 0);
        const lock = JSON.parse(fs.readFileSync(path.join(dir, LOCK), "utf8"));
        const keyOf = (line: number) =>
            Object.keys(lock.entries).find((key) => lock.entries[key].ref.start.line === line) as string;
        const refuting = lock.entries[keyOf(5)];
        // Only the three fields a hand edit needs: key, range, context and document hash stay the supports sentence's.
        Object.assign(lock.entries[keyOf(4)], {
            text: refuting.text,
            sha256: refuting.sha256,
            length: refuting.length,
        });
        fs.writeFileSync(path.join(dir, LOCK), JSON.stringify(lock, null, 2));
        // Ordinary drift: both sources are now one line off, so both are broken.
        fs.writeFileSync(path.join(dir, "doc.md"), `Preface.\n${LONG}`);

        const repair = runCli(["repair", "--write", "--json", FILE], { cwd: dir });
        const after = JSON.parse(fs.readFileSync(path.join(dir, FILE), "utf8"));
        const supports = after.annotations[0].sources[0];
        assert.equal(
            supports.start.str,
            "It kept",
            `the supports ref was moved onto the refuting sentence: ${repair.stdout}`,
        );
        assert.notEqual(
            supports.start.line,
            6,
            `the supports ref was moved onto the refuting sentence: ${repair.stdout}`,
        );
        const report = JSON.parse(repair.stdout);
        const ontoRefuting = (report.repairs ?? []).filter(
            (m: { pointer: string; after: Ref }) =>
                m.pointer === "/annotations/0/sources/0" && m.after.start.line === 6,
        );
        assert.deepEqual(
            ontoRefuting,
            [],
            "no candidate, certain or not, moves the supports ref onto the refuting sentence",
        );
        const gate = runCli(["check", "--locked", FILE], { cwd: dir });
        assert.notEqual(gate.status, 0, gate.stdout);
    });
});

describe("hardening: a lock-anchored repair found only approximately", () => {
    const PATH = "notes.md";
    const LOCKED = "Peak memory fell by a third after the plugin cache was trimmed.";
    const FAR = LOCKED.replace("a third", "half").replace("plugin ", "");
    const lockedRef: Ref = { path: PATH, start: { line: 2, str: "Peak" }, end: { line: 2, str: "trimmed." } };
    const locked = (lines: string[]) => lockOf(new SessionDocument(PATH, lines.join("\n")), lockedRef);

    it("is named lock-anchored (approximate), and is never certain when another sentence is within the limits", () => {
        const entry = locked(["Release notes.", LOCKED, "Windows support is planned."]);
        assert.ok(entry);
        const ref: Ref = { path: PATH, start: { line: 2, str: "Peak" }, end: { line: 2, str: "trimmed." } };
        // One changed copy: certain, and named as approximate.
        const one = new SessionDocument(
            PATH,
            ["New.", "Release notes.", LOCKED.replace("third", "fifth"), "Windows support is planned."].join("\n"),
        );
        const single = explainRepair(ref, new Session([one]), { locked: entry, sha256: lockSha256 }).candidates;
        assert.ok(single.length > 0);
        assert.equal(single[0].certain, true);
        assert.match(single[0].evidence ?? "", /^lock-anchored \(approximate\): /);
        // A second, farther copy within the limits (another sentence saying nearly the same): neither is
        // certain, although the first leads it by more than the margin an exact text needs.
        const two = new SessionDocument(
            PATH,
            ["New.", "Release notes.", LOCKED.replace("third", "fifth"), "Windows support is planned.", FAR].join("\n"),
        );
        const both = explainRepair(ref, new Session([two]), { locked: entry, sha256: lockSha256 }).candidates;
        assert.ok(both.length >= 2, JSON.stringify(both));
        assert.ok(
            both.every((c) => !c.certain),
            JSON.stringify(both.map((c) => [c.certain, c.evidence])),
        );
        assert.ok(both.every((c) => (c.evidence ?? "").startsWith("lock-anchored (approximate): ")));
    });
});
