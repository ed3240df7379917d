import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { resolveRef } from "../../server/src/core/resolve";
import { DiskDocuments } from "../../server/src/workspace/diskDocuments";
import { defaultIndexDir, indexFileFor, listCorpus, openIndex } from "../../server/src/workspace/evidenceStore";
import { type CliRun, runCli } from "./cliRun";

const fixtures = path.resolve(__dirname, "../../../test/fixtures/evidence");

function tempDir(): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-evidence-"));
}

function copyCorpus(): string {
    const dir = tempDir();
    const corpus = path.join(dir, "corpus");
    fs.cpSync(path.join(fixtures, "corpus"), corpus, { recursive: true });
    return fs.realpathSync(corpus);
}

function cli(args: string[], cwd = process.cwd()): CliRun {
    return runCli(args, { cwd });
}

/** Sets a file's modification time apart from the last one, so the stat check must notice. */
function rewrite(file: string, text: string, secondsLater = 10): void {
    fs.writeFileSync(file, text);
    const when = new Date(Date.now() + secondsLater * 1000);
    fs.utimesSync(file, when, when);
}

describe("evidence index files", () => {
    it("builds once, then updates only changed, added and deleted files", () => {
        const corpus = copyCorpus();
        const indexDir = tempDir();
        const first = openIndex(corpus, indexDir);
        const size = (name: string) => fs.statSync(path.join(corpus, name)).size;
        const all = ["agent-harness.md", "layered-memory.md", "rag-security.md", "untrusted-note.md"];
        assert.deepEqual(first.report, {
            added: 4,
            updated: 0,
            unchanged: 0,
            deleted: 0,
            written: true,
            readBytes: all.reduce((sum, name) => sum + size(name), 0),
        });
        const again = openIndex(corpus, indexDir);
        assert.deepEqual(again.report, {
            added: 0,
            updated: 0,
            unchanged: 4,
            deleted: 0,
            written: false,
            readBytes: 0,
        });
        assert.deepEqual(again.warnings, []);
        rewrite(path.join(corpus, "rag-security.md"), "# Changed\n\nFresh evidence text.\n");
        fs.writeFileSync(path.join(corpus, "new.md"), "# New\n\nAnother page.\n");
        fs.rmSync(path.join(corpus, "agent-harness.md"));
        // A few changes are not written: every run re-does them (reads the changed files) until they grow.
        for (let run = 0; run < 2; run++) {
            const updated = openIndex(corpus, indexDir);
            assert.equal(updated.report.updated, 1);
            assert.equal(updated.report.added, 1);
            assert.equal(updated.report.deleted, 1);
            assert.equal(updated.report.unchanged, 2);
            assert.equal(updated.report.written, false);
            assert.equal(updated.report.readBytes, size("rag-security.md") + size("new.md"));
            assert.equal(updated.index.document("agent-harness.md"), undefined);
            assert.equal(updated.index.document("rag-security.md")?.chunkCount, 1);
        }
        // Past the bound (here: zero), they are written, and the next run has nothing to re-do.
        const written = openIndex(corpus, indexDir, { deferred: { files: 0, bytes: 0 } });
        assert.equal(written.report.written, true);
        assert.deepEqual(openIndex(corpus, indexDir).report, { ...again.report, unchanged: 4 });
        // A touched file with the same text is not re-chunked, only its stat remembered.
        rewrite(path.join(corpus, "new.md"), "# New\n\nAnother page.\n", 20);
        const touched = openIndex(corpus, indexDir, { deferred: { files: 0, bytes: 0 } });
        assert.equal(touched.report.unchanged, 4);
        assert.equal(touched.report.written, true);
        assert.equal(openIndex(corpus, indexDir).report.written, false);
        assert.equal(openIndex(corpus, indexDir).report.readBytes, 0);
    });

    it("reads a file again when another file of the same size and time took its place (the inode moved)", () => {
        const corpus = copyCorpus();
        const indexDir = tempDir();
        const target = path.join(corpus, "swapped.md");
        const before = "# Swapped\n\nThe harness validates stale evidence before it cites anything.\n";
        fs.writeFileSync(target, before);
        fs.utimesSync(target, 1_700_000_000, 1_700_000_000); // whole seconds: utimes keeps them exactly
        openIndex(corpus, indexDir, { deferred: { files: 0, bytes: 0 } });
        const stats = fs.statSync(target);
        // Same length, other words; the same mtime; renamed over the original (a new inode).
        const swapped = `${before.slice(0, -10)} zephyrs.\n`;
        assert.equal(swapped.length, before.length);
        const temp = path.join(path.dirname(corpus), "swap.tmp");
        fs.writeFileSync(temp, swapped);
        fs.utimesSync(temp, 1_700_000_000, 1_700_000_000);
        fs.renameSync(temp, target);
        const after = fs.statSync(target);
        assert.equal(after.size, stats.size);
        assert.equal(after.mtimeMs, stats.mtimeMs);
        assert.notEqual(after.ino, stats.ino);
        const reopened = openIndex(corpus, indexDir);
        assert.equal(reopened.report.updated, 1, JSON.stringify(reopened.report));
        const terms = reopened.index.termsOf("zephyrs");
        assert.ok(reopened.index.search(terms).candidates.length > 0, "the new words are found");
    });

    it("rebuilds an unreadable or foreign index with a warning, and keeps one index per corpus", () => {
        const corpus = copyCorpus();
        const indexDir = tempDir();
        const { indexFile } = openIndex(corpus, indexDir);
        assert.equal(indexFile, indexFileFor(indexDir, corpus));
        assert.ok(!indexFile.startsWith(corpus), "the index lives outside the corpus");
        fs.writeFileSync(indexFile, "garbage");
        const rebuilt = openIndex(corpus, indexDir);
        assert.match(rebuilt.warnings.join("\n"), /unreadable .*rebuilding/);
        assert.equal(rebuilt.report.added, 4);
        const bytes = fs.readFileSync(indexFile);
        bytes[bytes.length - 30] ^= 0x55;
        fs.writeFileSync(indexFile, bytes);
        assert.match(openIndex(corpus, indexDir).warnings.join("\n"), /checksum/);
        // Other settings (here: an extra unsafe pattern) are another version of the index.
        const other = openIndex(corpus, indexDir, { unsafePatterns: ["workspace scope"] });
        assert.match(other.warnings.join("\n"), /another version or with other settings/);
        assert.ok(other.index.document("layered-memory.md")?.unsafe);
        const second = copyCorpus();
        assert.notEqual(openIndex(second, indexDir).indexFile, indexFile);
        assert.equal(fs.readdirSync(indexDir).filter((n) => n.endsWith(".idx")).length, 2);
        assert.equal(fs.readdirSync(indexDir).filter((n) => n.endsWith(".tmp")).length, 0);
    });

    it("finds every file but annotation, lock, notes and trace files; skips dot folders, node_modules and symlinks", () => {
        const corpus = copyCorpus();
        fs.mkdirSync(path.join(corpus, ".git"));
        fs.writeFileSync(path.join(corpus, ".git", "x.md"), "# hidden\n\ntext\n");
        fs.mkdirSync(path.join(corpus, "node_modules", "pkg"), { recursive: true });
        fs.writeFileSync(path.join(corpus, "node_modules", "pkg", "README.md"), "# dep\n\ntext\n");
        fs.mkdirSync(path.join(corpus, "sub"));
        fs.writeFileSync(path.join(corpus, "sub", "deep.markdown"), "# deep\n\ntext\n");
        fs.writeFileSync(path.join(corpus, "notes.txt"), "not markdown\n");
        for (const name of ["a.sourcecheck.json", "b.annotations.json", "a.sourcecheck.lock.json", "x.lock.json"]) {
            fs.writeFileSync(path.join(corpus, "sub", name), "{}\n");
        }
        for (const name of ["run.trace.jsonl", "n.notes.md", "n.notes.txt"])
            fs.writeFileSync(path.join(corpus, name), "x\n");
        const outside = path.join(tempDir(), "secret.md");
        fs.writeFileSync(outside, "# Secret\n\npassword\n");
        fs.symlinkSync(outside, path.join(corpus, "link.md"));
        const annotationFiles: { path: string }[] = [];
        const found = listCorpus(corpus, {}, annotationFiles as never).map((f) => f.path);
        assert.deepEqual(found, [
            "agent-harness.md",
            "layered-memory.md",
            "notes.txt",
            "rag-security.md",
            "sub/deep.markdown",
            "untrusted-note.md",
        ]);
        assert.deepEqual(annotationFiles.map((f) => f.path).sort(), [
            "sub/a.sourcecheck.json",
            "sub/b.annotations.json",
        ]);
        assert.deepEqual(
            listCorpus(corpus, { include: ["**/*.txt", "**/*.json"], exclude: [] }).map((f) => f.path),
            ["notes.txt"],
        );
    });

    it("defaults to the user's cache directory", () => {
        assert.equal(defaultIndexDir({ XDG_CACHE_HOME: "/c" }, "linux"), path.join("/c", "sourcecheck", "evidence"));
        assert.equal(
            defaultIndexDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32"),
            path.join("C:\\Users\\u\\AppData\\Local", "sourcecheck", "evidence"),
        );
    });
});

describe("sourcecheck evidence (CLI)", () => {
    it("prints evidence blocks with citations within the budget", () => {
        const indexDir = tempDir();
        const args = ["evidence", "--corpus", path.join(fixtures, "corpus"), "--index-dir", indexDir];
        const run = cli([...args, "--query", "How should stale evidence be validated?"]);
        assert.equal(run.status, 0, run.stderr);
        assert.match(
            run.stdout,
            /\[S1\] source: rag-security\.md#L7-L9\nheading: Source-grounded RAG > Stale evidence\nref: /,
        );
        // The floor keeps the one passage that holds the query; --floor 0 lists every chunk sharing a word.
        assert.match(run.stdout, /Citations: rag-security\.md#L7-L9\n/);
        // The places it left go to the chunks under the floor, named as such and never cited.
        assert.match(
            run.stdout,
            /\nBelow the floor \(not evidence; judge it\): rag-security\.md#L3-L5 \(\d+% of the query's weight\): /,
        );
        const unfloored = cli([...args, "--query", "How should stale evidence be validated?", "--floor", "0"]);
        assert.match(
            unfloored.stdout,
            /Citations: rag-security\.md#L7-L9, rag-security\.md#L3-L5, rag-security\.md#L11-L13\n$/,
        );
        const small = cli([...args, "--query", "stale evidence", "--budget", "700"]);
        const prompt = small.stdout.slice(0, small.stdout.lastIndexOf("\n\nCitations:"));
        assert.ok(prompt.length <= 700, `${prompt.length}`);
        assert.ok(!prompt.includes("untrusted-note") && !prompt.includes("Ignore previous"), "no unsafe source");
    });

    it("answers --json with hits whose refs resolve inside their chunk, and names rejections", () => {
        const corpus = path.join(fixtures, "corpus");
        const run = cli([
            "evidence",
            "--corpus",
            corpus,
            "--index-dir",
            tempDir(),
            "--json",
            "--top-k",
            "2",
            "--query",
            "Which permission hook runs before tool execution?",
            "--floor",
            "0",
        ]);
        assert.equal(run.status, 0, run.stderr);
        const result = JSON.parse(run.stdout);
        assert.deepEqual(Object.keys(result), [
            "hits",
            "rejected",
            "topK",
            "maxChars",
            "truncatedHits",
            "searched",
            "floor",
            "ok",
            "exitCode",
        ]);
        assert.equal(result.ok, true);
        assert.equal(result.exitCode, 0);
        assert.equal(result.floor, 0);
        assert.equal(result.hits.length, 2);
        assert.deepEqual(result.searched.documents, 4);
        const disk = new DiskDocuments(corpus);
        for (const hit of result.hits) {
            assert.deepEqual(Object.keys(hit), [
                "path",
                "startLine",
                "endLine",
                "score",
                "coverage",
                "headingPath",
                "ref",
                "text",
                "sentence",
                "chunkRef",
                "textChars",
                "truncated",
            ]);
            const resolved = resolveRef(disk, hit.ref);
            assert.ok(resolved.valid);
            const { index, length } = hit.sentence;
            assert.equal(hit.text.substr(index, length), resolved.text, "the sentence is what the ref cites");
            const chunk = resolveRef(disk, hit.chunkRef);
            assert.ok(chunk.valid);
            assert.equal(hit.text, chunk.text, "the text is what chunkRef cites");
            assert.equal(hit.truncated, false);
            assert.ok(resolved.range.start.line >= hit.startLine && resolved.range.end.line <= hit.endLine);
        }
        assert.deepEqual(result.hits[0].headingPath, ["Agent Harness Operations", "Permission gate"]);
        assert.ok(Object.values(result.rejected).some((r) => String(r).startsWith("prompt override pattern")));
    });

    it("--eval passes the seed's cases (exit 0) and fails a case it cannot meet (exit 1)", () => {
        const indexDir = tempDir();
        const corpus = path.join(fixtures, "corpus");
        const ok = cli([
            "evidence",
            "--corpus",
            corpus,
            "--eval",
            path.join(fixtures, "cases.json"),
            "--index-dir",
            indexDir,
        ]);
        assert.equal(ok.status, 0, ok.stdout + ok.stderr);
        assert.match(ok.stdout, /RESULT: OK/);
        assert.equal((ok.stdout.match(/^PASS /gm) ?? []).length, 7);
        const json = cli([
            "evidence",
            "--corpus",
            corpus,
            "--eval",
            path.join(fixtures, "cases.json"),
            "--index-dir",
            indexDir,
            "--json",
        ]);
        const report = JSON.parse(json.stdout);
        assert.equal(report.passed, true);
        assert.deepEqual(Object.keys(report.metrics).length, 7);
        const dir = tempDir();
        const cases = path.join(dir, "cases.json");
        fs.writeFileSync(
            cases,
            JSON.stringify({
                cases: [{ case_id: "x", query: "stale evidence", expected_sources: ["agent-harness.md"] }],
            }),
        );
        const failing = cli(["evidence", "--corpus", corpus, "--eval", cases, "--index-dir", indexDir]);
        assert.equal(failing.status, 1);
        assert.match(failing.stdout, /FAIL recall_at_k/);
    });

    it("reports a stale hit after the corpus changed under the index", () => {
        const corpus = copyCorpus();
        const indexDir = tempDir();
        const args = ["evidence", "--corpus", corpus, "--index-dir", indexDir, "--json", "--query", "stale evidence"];
        assert.equal(cli(args).status, 0);
        rewrite(path.join(corpus, "rag-security.md"), "# Source-grounded RAG\n\n## Other\n\nNothing relevant.\n");
        const after = JSON.parse(cli(args).stdout);
        assert.ok(after.hits.every((h: { path: string }) => h.path !== "rag-security.md"));
    });

    it("warns and rebuilds when the index file is damaged", () => {
        const corpus = copyCorpus();
        const indexDir = tempDir();
        const args = ["evidence", "--corpus", corpus, "--index-dir", indexDir, "--query", "memory"];
        assert.equal(cli(args).status, 0);
        fs.writeFileSync(indexFileFor(indexDir, corpus), "{}");
        const run = cli(args);
        assert.equal(run.status, 0);
        assert.match(run.stderr, /^sourcecheck: warning: the evidence index .* is unreadable/);
        assert.equal(cli(args).stderr, "");
    });

    it("refuses bad usage with one line and exit 2", () => {
        const corpus = path.join(fixtures, "corpus");
        for (const args of [
            ["evidence", "--query", "x"],
            ["evidence", "--corpus", corpus],
            ["evidence", "--corpus", corpus, "--query", "x", "--eval", "y.json"],
            ["evidence", "--corpus", corpus, "--query", "x", "--top-k", "0"],
            ["evidence", "--corpus", corpus, "--query", "x", "--budget", "10"],
            ["evidence", "--corpus", path.join(corpus, "nope"), "--query", "x"],
            ["evidence", "--corpus", corpus, "--eval", path.join(corpus, "missing.json")],
        ]) {
            const run = cli([...args, "--index-dir", tempDir()]);
            assert.equal(run.status, 2, args.join(" "));
            assert.match(run.stderr, /^sourcecheck: evidence: |^sourcecheck: cannot read/);
            assert.ok(!run.stderr.includes("    at "), "no stack trace");
        }
    });
});
