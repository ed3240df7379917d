import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { checkInput, parseJsonText } from "../../server/src/core";
import { DiskDocuments } from "../../server/src/workspace/diskDocuments";
import { type CliRun, runCli } from "./cliRun";

const repo = path.resolve(__dirname, "../../..");
const demo = path.join(repo, "examples/demo");

function cli(args: string[], cwd: string): CliRun {
    return runCli(args, { cwd });
}

function tempCopyOfDemo(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-repair-"));
    fs.cpSync(demo, dir, { recursive: true });
    return dir;
}

function insertAtTop(file: string, lines: string): void {
    fs.writeFileSync(file, lines + fs.readFileSync(file, "utf8"));
}

/** Which refs of an annotation file are broken, checked against its folder. */
function brokenRefs(dir: string, file = "answer.sourcecheck.json"): string[] {
    const parsed = parseJsonText(fs.readFileSync(path.join(dir, file), "utf8"));
    const result = checkInput(parsed.value, new DiskDocuments(dir));
    return [...new Set(result.problems.map((p) => `${p.annotation}/${p.role}`))].sort();
}

describe("sourcecheck repair", () => {
    it("restores every shifted ref of the demo after lines are inserted at the top of a source, and keeps formatting", () => {
        const dir = tempCopyOfDemo();
        const before = brokenRefs(dir);
        insertAtTop(path.join(dir, "sources/release-notes.md"), "A new first line.\n\nAnd a blank one above.\n");
        const afterInsert = brokenRefs(dir);
        assert.ok(afterInsert.length > before.length, "the insertion broke refs");
        const original = fs.readFileSync(path.join(dir, "answer.sourcecheck.json"), "utf8");
        const run = cli(["repair", "--write", "answer.sourcecheck.json"], dir);
        assert.match(
            run.stdout,
            /line-shift: sources\/release-notes\.md:5 "Offline sync" … 5 "reconnected\." -> sources\/release-notes\.md:8 "Offline sync" … 8 "reconnected\."/,
        );
        const repaired = brokenRefs(dir);
        // Every ref the insertion broke is valid again; only the demo's own broken refs may remain.
        for (const ref of repaired) assert.ok(before.includes(ref), `${ref} is still broken`);
        const written = fs.readFileSync(path.join(dir, "answer.sourcecheck.json"), "utf8");
        // Only line numbers changed: same length of lines, same layout, same key order.
        assert.equal(written.split("\n").length, original.split("\n").length);
        assert.equal(
            written.replace(/"line": \d+/g, ""),
            original.replace(/"line": \d+/g, "").replace(/benchmarks\.txt/, "benchmark.txt"),
        );
        assert.equal(run.status, repaired.length === 0 ? 0 : 1);
    });

    it("prints JSON in the documented shape, and exits 0 when certain repairs fix everything", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-repair-"));
        fs.writeFileSync(
            path.join(dir, "notes.md"),
            "Intro\n\nOffline sync now resumes after the client is reconnected.\n",
        );
        const file = {
            annotations: [
                {
                    claim: {
                        path: "notes.md",
                        start: { line: 1, str: "Offline sync" },
                        end: { line: 1, str: "reconnected." },
                    },
                    sources: [
                        {
                            path: "note.md",
                            start: { line: 3, str: "Offline" },
                            end: { line: 3, str: "resumes" },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                },
            ],
        };
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), JSON.stringify(file, null, 2));
        const run = cli(["repair", "--json", "a.sourcecheck.json"], dir);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(json.remaining, []);
        assert.deepEqual(json.repairs, [
            {
                annotation: 1,
                role: "claim",
                pointer: "/annotations/0/claim",
                reason: "line-shift",
                certain: true,
                before: file.annotations[0].claim,
                after: {
                    path: "notes.md",
                    start: { line: 3, str: "Offline sync" },
                    end: { line: 3, str: "reconnected." },
                },
                text: "Offline sync now resumes after the client is reconnected.",
                evidence: "the only line within 30 where both boundaries occur: line 3",
                evidenceKind: "reading",
            },
            {
                annotation: 1,
                role: "source",
                source: 1,
                pointer: "/annotations/0/sources/0",
                reason: "path",
                certain: true,
                before: { path: "note.md", start: { line: 3, str: "Offline" }, end: { line: 3, str: "resumes" } },
                after: { path: "notes.md", start: { line: 3, str: "Offline" }, end: { line: 3, str: "resumes" } },
                text: "Offline sync now resumes",
                evidence: '"notes.md" is the only document that fits the path, and the ref resolves there as written',
                evidenceKind: "search",
            },
        ]);
        assert.equal(run.status, 0);
    });

    it("--write edits only the changed tokens: comments, indentation and key order stay", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-repair-"));
        fs.writeFileSync(path.join(dir, "notes.md"), "x\nFaster cold start: the runtime loads plugins lazily.\n");
        const text = `// answers of the week\n[\n\t{\n\t\t"sources": [], /* none yet */\n\t\t"claim": {"end": {"str": "lazily.", "line": 1}, "path": "notes.md", "start": {"line": 1, "str": "Faster cold start"}}\n\t}\n]\n`;
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), text);
        const run = cli(["repair", "--write", "a.sourcecheck.json"], dir);
        const written = fs.readFileSync(path.join(dir, "a.sourcecheck.json"), "utf8");
        assert.equal(written, text.replace('"line": 1}', '"line": 2}').replace('{"line": 1,', '{"line": 2,'));
        assert.match(run.stdout, /a\.sourcecheck\.json:5:12: line-shift:/);
        assert.equal(run.status, 2, "comments and an empty sources list are still schema errors");
    });

    it("reports an undecidable ambiguity as uncertain candidates and writes nothing", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-repair-"));
        fs.writeFileSync(
            path.join(dir, "d.md"),
            "Memory use is unchanged: the release uses the same memory as the previous release.\n",
        );
        const file = `{ "annotations": [ { "claim": { "path": "d.md", "start": { "line": 1, "str": "Memory" }, "end": { "line": 1, "str": "release" } }, "sources": [ { "path": "d.md", "start": { "line": 1, "str": "Memory" }, "end": { "line": 1, "str": "unchanged" }, "polarity": "supports", "confidence": 1 } ] } ] }\n`;
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), file);
        const run = cli(["repair", "--write", "a.sourcecheck.json"], dir);
        assert.equal(fs.readFileSync(path.join(dir, "a.sourcecheck.json"), "utf8"), file);
        assert.match(run.stdout, /ambiguous: .* \(uncertain\)/);
        assert.match(
            run.stdout,
            /1 broken ref: 0 with a certain repair, 1 with candidates only, 0 without; nothing to write/,
        );
        assert.equal(run.status, 1);
    });

    it("--since REV follows spans through a git history, text moved included", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-repair-git-"));
        const git = (...args: string[]) =>
            execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, stdio: "pipe" });
        git("init", "-q");
        const paragraph = "Under sustained load the scheduler drops low-priority jobs.";
        fs.writeFileSync(path.join(dir, "notes.md"), `Intro\nSetup takes minutes.\n${paragraph}\nEnd.\n`);
        const file = {
            annotations: [
                {
                    claim: { path: "notes.md", start: { line: 3, str: "Under" }, end: { line: 3, str: "jobs." } },
                    sources: [
                        {
                            path: "notes.md",
                            start: { line: 2, str: "Setup" },
                            end: { line: 2, str: "minutes." },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                },
            ],
        };
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), JSON.stringify(file, null, 2));
        git("add", ".");
        git("commit", "-qm", "first");
        // The paragraph moves to the end, the setup line gets a new first half.
        fs.writeFileSync(
            path.join(dir, "notes.md"),
            `Intro\nNew text.\nSetup takes minutes.\nEnd.\nMore.\nAppendix: ${paragraph}\n`,
        );
        const run = cli(["repair", "--since", "HEAD", "--json", "a.sourcecheck.json"], dir);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(
            json.repairs.map((r: { reason: string; certain: boolean; after: { start: { line: number } } }) => [
                r.reason,
                r.certain,
                r.after.start.line,
            ]),
            [
                ["moved-text", true, 6],
                ["line-shift", true, 3],
            ],
        );
        assert.equal(json.repairs[0].text, paragraph);
        assert.equal(run.status, 0);
    });

    it("fails clearly outside a git work tree and for an unknown revision", () => {
        const outside = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-repair-nogit-"));
        fs.writeFileSync(path.join(outside, "a.sourcecheck.json"), '{ "annotations": [] }');
        const notGit = cli(["repair", "--since", "HEAD", "a.sourcecheck.json"], outside);
        assert.equal(notGit.status, 2);
        assert.match(
            notGit.stderr,
            /^sourcecheck: repair: invalid-arguments: since: --since needs a git work tree, and .* is not inside one\n$/,
        );
        const repoDir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-repair-git-"));
        execFileSync("git", ["init", "-q"], { cwd: repoDir });
        fs.writeFileSync(path.join(repoDir, "a.sourcecheck.json"), '{ "annotations": [] }');
        const unknown = cli(["repair", "--since", "no-such-rev", "a.sourcecheck.json"], repoDir);
        assert.equal(unknown.status, 2);
        assert.match(unknown.stderr, /^sourcecheck: repair: invalid-arguments: since: unknown revision "no-such-rev"/);
        const option = cli(["repair", "--since=--output=x", "a.sourcecheck.json"], repoDir);
        assert.equal(option.status, 2);
        assert.match(option.stderr, /not a revision/);
    });

    it("rejects bad usage with exit 2", () => {
        assert.equal(cli(["repair"], demo).status, 2);
        assert.equal(cli(["repair", "--bogus", "answer.sourcecheck.json"], demo).status, 2);
        assert.equal(cli(["repair", "a.json", "b.json"], demo).status, 2);
        const missing = cli(["repair", "nope.json"], demo);
        assert.equal(missing.status, 2);
        assert.match(missing.stderr, /cannot read nope\.json: no such file/);
    });

    it("never reads documents outside the root", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-repair-"));
        fs.writeFileSync(
            path.join(dir, "a.sourcecheck.json"),
            JSON.stringify({
                annotations: [
                    {
                        claim: { path: "../secret.md", start: { line: 1, str: "a" }, end: { line: 1, str: "b" } },
                        sources: [],
                    },
                ],
            }),
        );
        const run = cli(["repair", "--json", "a.sourcecheck.json"], dir);
        const json = JSON.parse(run.stdout);
        assert.deepEqual(json.repairs, []);
        assert.notEqual(run.status, 0);
    });
});
