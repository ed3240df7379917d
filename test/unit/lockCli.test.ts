import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli, runCliAsync } from "./cliRun";

const cli = (args: string[], cwd: string) => runCliAsync(args, { cwd });

const ARTICLE = "# Orbit\n\nOrbit 2.4 improves cold start by 37%.\nIt kept serving requests.\n";
const BENCH = "2.3.0: 820ms\n2.4.0: 517ms\ndelta: -37%\n";
const ANNOTATIONS = {
    annotations: [
        {
            claim: { path: "article.md", start: { line: 3, str: "improves" }, end: { line: 3, str: "37%" } },
            sources: [
                {
                    path: "bench.md",
                    start: { line: 3, str: "delta" },
                    end: { line: 3, str: "-37%" },
                    polarity: "supports",
                    confidence: 0.9,
                },
                {
                    path: "article.md",
                    start: { line: 4, str: "kept" },
                    end: { line: 4, str: "requests" },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
    ],
};

function workspace(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-lock-"));
    fs.writeFileSync(path.join(dir, "article.md"), ARTICLE);
    fs.writeFileSync(path.join(dir, "bench.md"), BENCH);
    fs.mkdirSync(path.join(dir, "answers"));
    fs.writeFileSync(path.join(dir, "answers/a.sourcecheck.json"), JSON.stringify(ANNOTATIONS, null, 2));
    return dir;
}

const lockPath = (dir: string) => path.join(dir, "answers/a.sourcecheck.lock.json");

describe("sourcecheck lock", () => {
    it("writes the sidecar beside the file, deterministic, and check stays quiet while nothing changed", async () => {
        const dir = workspace();
        const run = await cli(["lock", "--root", dir, "answers"], dir);
        assert.equal(run.status, 0, run.stdout + run.stderr);
        assert.match(run.stdout, /answers\/a\.sourcecheck\.lock\.json: 3 of 3 refs locked \(exit 0\)/);
        const text = fs.readFileSync(lockPath(dir), "utf8");
        assert.ok(text.endsWith("\n") && !text.includes("\r"));
        assert.equal(JSON.parse(text).annotationFile, "a.sourcecheck.json");
        assert.equal(Object.keys(JSON.parse(text).entries).length, 3);
        // Again, with nothing changed: the same bytes.
        assert.equal((await cli(["lock", "answers/a.sourcecheck.json"], dir)).status, 0);
        assert.equal(fs.readFileSync(lockPath(dir), "utf8"), text);
        // check . finds the annotation file, never the lock; no warning while the texts are the locked ones.
        const check = await cli(["check", "--json", "answers/a.sourcecheck.json"], dir);
        assert.equal(check.status, 0);
        const report = JSON.parse(check.stdout);
        assert.deepEqual(report.lock, { file: "answers/a.sourcecheck.lock.json", locked: 3, changed: 0, unlocked: 0 });
        assert.ok(!check.stdout.includes("warnings"));
        const all = await cli(["check", "--json", "."], dir);
        assert.deepEqual(
            JSON.parse(all.stdout).files.map((f: { file: string }) => f.file),
            ["answers/a.sourcecheck.json"],
        );
    });

    it("check reports text-changed on the changed ref only; --locked makes it an error (exit 1)", async () => {
        const dir = workspace();
        await cli(["lock", "answers"], dir);
        fs.writeFileSync(path.join(dir, "article.md"), ARTICLE.replace("kept serving", "kept \u001b[31mserving"));
        const check = await cli(["check", "--json", "answers/a.sourcecheck.json"], dir);
        assert.equal(check.status, 0);
        const report = JSON.parse(check.stdout);
        const [entry] = report.entries;
        assert.equal(entry.valid, true);
        assert.equal(entry.claim.warnings, undefined);
        assert.equal(entry.sources[0].warnings, undefined);
        assert.deepEqual(entry.sources[1].warnings, [
            {
                code: "text-changed",
                lockedText: "kept serving requests",
                text: "kept \u001b[31mserving requests",
                next: { action: "accept-text", path: "article.md", line: 4 },
                message: "the cited text changed since it was locked: kept [-serving-]{+\\x1b[31mserving+} requests",
            },
        ]);
        assert.deepEqual(report.lock.changed, 1);
        const text = await cli(["check", "answers/a.sourcecheck.json"], dir);
        assert.equal(text.status, 0);
        assert.match(text.stdout, /a\.sourcecheck\.json:\d+:\d+: text-changed: the cited text changed/);
        assert.ok(!text.stdout.includes("\u001b"), "the escape character reaches the terminal escaped");
        assert.match(text.stdout, /1 warning \(exit 0\)/);
        // Every output shows the words that changed, not two quoted texts to compare by eye.
        const words = "kept [-serving-]{+\\x1b[31mserving+} requests";
        assert.ok(
            text.stdout.includes(`text-changed: the cited text changed since it was locked: ${words}`),
            text.stdout,
        );

        const locked = await cli(["check", "--locked", "--json", "answers/a.sourcecheck.json"], dir);
        assert.equal(locked.status, 1);
        const lockedReport = JSON.parse(locked.stdout);
        assert.equal(lockedReport.entries[0].valid, false);
        assert.equal(lockedReport.invalidCount, 1);
        assert.equal(lockedReport.entries[0].sources[1].warnings[0].severity, "error");
        const github = await cli(["check", "--format", "github", "."], dir);
        assert.match(
            github.stdout,
            /^::warning file=answers\/a\.sourcecheck\.json,.*title=sourcecheck text-changed::/m,
        );
        assert.ok(github.stdout.includes(`locked: ${words}`), github.stdout);
        const sarif = JSON.parse((await cli(["check", "--format", "sarif", "answers/a.sourcecheck.json"], dir)).stdout);
        assert.equal(sarif.runs[0].results[0].level, "warning");
        assert.equal(sarif.runs[0].results[0].ruleId, "text-changed");
        assert.ok(sarif.runs[0].results[0].message.text.includes(words), sarif.runs[0].results[0].message.text);
    });

    it("--locked makes a ref missing from the lock, or a file without a lock, an error", async () => {
        const dir = workspace();
        const noLock = await cli(["check", "--locked", "answers/a.sourcecheck.json"], dir);
        assert.equal(noLock.status, 1);
        assert.match(
            noLock.stdout,
            /unlocked: this file has no lock: lock its refs; next: lock the refs: `sourcecheck lock answers\/a\.sourcecheck\.json`/,
        );
        await cli(["lock", "answers"], dir);
        const more = structuredClone(ANNOTATIONS);
        more.annotations.push({
            claim: { path: "article.md", start: { line: 1, str: "#" }, end: { line: 1, str: "Orbit" } },
            sources: [more.annotations[0].sources[0]],
        });
        fs.writeFileSync(path.join(dir, "answers/a.sourcecheck.json"), JSON.stringify(more, null, 2));
        const run = await cli(["check", "--locked", "--json", "answers/a.sourcecheck.json"], dir);
        assert.equal(run.status, 1);
        const report = JSON.parse(run.stdout);
        assert.equal(report.entries[0].valid, true, "the untouched annotation stays valid");
        assert.equal(report.entries[1].valid, false);
        assert.equal(report.entries[1].claim.warnings[0].code, "unlocked");
        assert.equal(report.entries[1].sources[0].warnings, undefined, "its source is locked (shared entry)");
        // Without --locked an unlocked ref is no warning.
        assert.ok(!(await cli(["check", "answers/a.sourcecheck.json"], dir)).stdout.includes("unlocked"));
    });

    it("keeps the last entry of a ref that no longer resolves (exit 1, listed from 1), drops refs gone from the file", async () => {
        const dir = workspace();
        await cli(["lock", "answers"], dir);
        const before = JSON.parse(fs.readFileSync(lockPath(dir), "utf8")).entries;
        fs.writeFileSync(path.join(dir, "bench.md"), `new first line\n${BENCH}`);
        const run = await cli(["lock", "answers"], dir);
        assert.equal(run.status, 1);
        assert.match(
            run.stdout,
            /answers\/a\.sourcecheck\.json:\d+:\d+: annotation 1, source 1: boundary-not-found: .* \(its last locked entry is kept\)/,
        );
        const after = JSON.parse(fs.readFileSync(lockPath(dir), "utf8")).entries;
        const benchKey = Object.keys(before).find((k) => k.startsWith("bench.md#"))!;
        assert.deepEqual(after[benchKey], before[benchKey]);
        const json = JSON.parse((await cli(["lock", "--json", "answers"], dir)).stdout);
        assert.equal(json.exitCode, 1);
        assert.deepEqual(
            json.files[0].notLocked.map(
                (n: { annotation: number; role: unknown; source?: number; kept: boolean; next: unknown }) => [
                    n.annotation,
                    n.role,
                    n.source,
                    n.kept,
                    n.next,
                ],
            ),
            // Numbers from 1 (docs/contract.md, "Numbers"); the kept entry is what repair looks for.
            [[1, "source", 1, true, { action: "re-anchor", path: "bench.md", line: 3 }]],
        );
        // Remove the bench source from the file: its entry goes.
        const fewer = structuredClone(ANNOTATIONS);
        fewer.annotations[0].sources.shift();
        fs.writeFileSync(path.join(dir, "answers/a.sourcecheck.json"), JSON.stringify(fewer, null, 2));
        assert.equal((await cli(["lock", "answers"], dir)).status, 0);
        const pruned = JSON.parse(fs.readFileSync(lockPath(dir), "utf8")).entries;
        assert.deepEqual(
            Object.keys(pruned).sort(),
            Object.keys(before)
                .filter((k) => k !== benchKey)
                .sort(),
        );
    });

    it("a bad lock is a clear problem with exit 2, never a crash nor a silent fallback", async () => {
        for (const [content, code] of [
            ["{ not json", "lock-invalid-json"],
            [
                JSON.stringify({ lockVersion: 1, annotationFile: "a.sourcecheck.json", entries: { k: { ref: 1 } } }),
                "lock-schema",
            ],
            [JSON.stringify({ lockVersion: 1, annotationFile: "other.sourcecheck.json", entries: {} }), "lock-foreign"],
        ] as const) {
            const dir = workspace();
            fs.writeFileSync(lockPath(dir), content);
            const check = await cli(["check", "answers/a.sourcecheck.json"], dir);
            assert.equal(check.status, 2, code);
            assert.match(
                check.stdout,
                new RegExp(`^answers/a\\.sourcecheck\\.lock\\.json:1:1: ${code}: the lock`, "m"),
            );
            const json = JSON.parse((await cli(["check", "--json", "answers/a.sourcecheck.json"], dir)).stdout);
            assert.equal(json.exitCode, 2);
            assert.equal(json.lockError.code, code);
            const lock = await cli(["lock", "answers"], dir);
            assert.equal(lock.status, 2);
            assert.match(lock.stdout, new RegExp(`${code}: .*nothing was written`));
            assert.equal(fs.readFileSync(lockPath(dir), "utf8"), content, "the bad lock is left as it was");
        }
        const dir = workspace();
        fs.mkdirSync(lockPath(dir));
        const check = await cli(["check", "answers/a.sourcecheck.json"], dir);
        assert.equal(check.status, 2);
        assert.match(check.stdout, /lock-unreadable: the lock is a directory/);
    });

    it("lock files are never annotation files: not found in folders or globs, refused when named", async () => {
        const dir = workspace();
        await cli(["lock", "answers"], dir);
        fs.writeFileSync(path.join(dir, "sourcecheck.config.json"), JSON.stringify({ annotationFiles: ["**/*.json"] }));
        const found = JSON.parse((await cli(["check", "--json", "answers/*.json"], dir)).stdout);
        assert.deepEqual(
            found.files.map((f: { file: string }) => f.file),
            ["answers/a.sourcecheck.json"],
        );
        const named = runCli(["check", "answers/a.sourcecheck.lock.json"], { cwd: dir });
        assert.equal(named.status, 2);
        assert.match(named.stderr, /is a lock file/);
        const lockNamed = await cli(["lock", "answers/a.sourcecheck.lock.json"], dir);
        assert.equal(lockNamed.status, 2);
    });

    it("bad usage exits 2", async () => {
        const dir = workspace();
        assert.equal((await cli(["lock"], dir)).status, 2);
        assert.equal((await cli(["lock", "nowhere.sourcecheck.json"], dir)).status, 2);
        const schema = path.join(dir, "answers/b.sourcecheck.json");
        fs.writeFileSync(schema, '{"annotations": [{"claim": 1}]}');
        const run = await cli(["lock", "answers/b.sourcecheck.json"], dir);
        assert.equal(run.status, 2);
        assert.ok(!fs.existsSync(path.join(dir, "answers/b.sourcecheck.lock.json")));
    });
});
