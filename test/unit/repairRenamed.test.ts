/**
 * Renamed and moved documents (docs/repair.md, "Renamed documents"): a ref whose path names no
 * document is re-pointed on evidence naming exactly one file (the lock's document hash, git's rename
 * record, every locked text of the document), and an ambiguous rename is named, never guessed.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
    type DocumentMoves,
    explainRepair,
    type LockedSpan,
    type Ref,
    type RepairDocuments,
    Session,
    SessionDocument,
} from "../../server/src/core";
import { diskToolRunner } from "../../server/src/mcp/diskContext";
import { runCli } from "./cliRun";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const SLA = "# SLA\n\nUptime is 99.9% per month.\nCredits apply below that.\n";
const ref: Ref = { path: "sources/sla.md", start: { line: 3, str: "Uptime" }, end: { line: 3, str: "per month." } };
const lockedOf = (content: string): LockedSpan => ({
    text: "Uptime is 99.9% per month.",
    length: 26,
    sha256: sha("Uptime is 99.9% per month."),
    documentSha256: sha(content),
    prefix: "# SLA\n\n",
    suffix: "\nCredits apply below that.",
    range: { start: { line: 3, column: 0 }, end: { line: 3, column: 26 } },
});

function documents(files: Record<string, string>, moves?: Partial<DocumentMoves>): RepairDocuments {
    const session = new Session(Object.entries(files).map(([p, c]) => new SessionDocument(p, c)));
    return {
        get: (p) => session.get(p),
        candidatePaths: () => session.paths,
        moves: moves && { pathsWithSha256: () => [], renamesOf: () => [], ...moves },
    };
}

describe("repair: renamed and moved documents", () => {
    const other = "# Notes\n\nNothing about uptime here.\n";

    it("re-points a ref to the one file whose text has the lock's document hash", () => {
        const docs = documents(
            { "policies/service-levels.md": SLA, "notes.md": other },
            { pathsWithSha256: (h) => (h === sha(SLA) ? ["policies/service-levels.md"] : []) },
        );
        const { candidates } = explainRepair(ref, docs, { locked: lockedOf(SLA), sha256: sha });
        assert.equal(candidates.length, 1);
        assert.deepEqual(
            [candidates[0].certain, candidates[0].reason, candidates[0].evidenceKind, candidates[0].ref.path],
            [true, "path", "lock", "policies/service-levels.md"],
        );
        assert.match(candidates[0].evidence ?? "", /lock's hash of "sources\/sla\.md" matches one file/);
    });

    it("re-points a ref to where git records the rename, the text changed elsewhere since", () => {
        const edited = SLA.replace("Credits", "Service credits");
        const docs = documents(
            { "sla-2024.md": edited, "notes.md": other },
            { renamesOf: (p) => (p === "sources/sla.md" ? ["sla-2024.md"] : []) },
        );
        const { candidates } = explainRepair(ref, docs, { locked: lockedOf(SLA), sha256: sha });
        const certain = candidates.filter((c) => c.certain);
        assert.equal(certain.length, 1);
        assert.deepEqual([certain[0].ref.path, certain[0].evidenceKind], ["sla-2024.md", "history"]);
        assert.match(certain[0].evidence ?? "", /git records "sources\/sla\.md" renamed to "sla-2024\.md"/);
    });

    it("re-points a ref to the one file holding every locked text of its document", () => {
        const edited = `Preface.\n${SLA}`;
        const docs = documents({ "archive/sla-old.md": edited, "notes.md": other }, {});
        const locked = lockedOf(SLA);
        const { candidates } = explainRepair(ref, docs, { locked, lockedOfDocument: [locked], sha256: sha });
        const certain = candidates.filter((c) => c.certain);
        assert.equal(certain.length, 1);
        assert.equal(certain[0].ref.path, "archive/sla-old.md");
        assert.equal(certain[0].ref.start.line, 4, "and the lock moves it to the text's new line");
        assert.match(certain[0].evidence ?? "", /the locked text of "sources\/sla\.md" is found in one file only/);
    });

    it("names the files when the rename is ambiguous, and guesses none", () => {
        const docs = documents(
            { "a/sla.md": SLA, "b/sla.md": SLA },
            { pathsWithSha256: (h) => (h === sha(SLA) ? ["a/sla.md", "b/sla.md"] : []) },
        );
        const locked = lockedOf(SLA);
        const explained = explainRepair(ref, docs, { locked, lockedOfDocument: [locked], sha256: sha });
        assert.equal(
            explained.candidates.filter((c) => c.certain).length,
            0,
            JSON.stringify(explained.candidates.map((c) => c.ref.path)),
        );
        assert.match(explained.note ?? "", /matches 2 files: "a\/sla\.md", "b\/sla\.md"; none is chosen/);
    });

    it("sourcecheck repair finds a renamed document by the lock's hash, and by git's rename record", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-renamed-"));
        fs.mkdirSync(path.join(dir, "sources"));
        fs.writeFileSync(path.join(dir, "sources/sla.md"), SLA);
        fs.writeFileSync(path.join(dir, "sources/other.md"), other);
        const annotations = {
            annotations: [
                {
                    claim: { path: "answer.md", start: { line: 1, str: "Uptime" }, end: { line: 1, str: "high." } },
                    sources: [{ ...ref, polarity: "supports", confidence: 0.9 }],
                },
            ],
        };
        fs.writeFileSync(path.join(dir, "answer.md"), "Uptime is high.\n");
        fs.writeFileSync(path.join(dir, "answer.sourcecheck.json"), `${JSON.stringify(annotations, null, 2)}\n`);
        assert.equal(runCli(["lock", "answer.sourcecheck.json"], { cwd: dir }).status, 0);
        const git = (...args: string[]) =>
            execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, stdio: "pipe" });
        git("init", "-q");
        git("add", ".");
        git("commit", "-qm", "first");

        // By hash: renamed with its text unchanged.
        git("mv", "sources/sla.md", "sources/service-levels.md");
        let run = runCli(["repair", "--json", "answer.sourcecheck.json"], { cwd: dir });
        let repair = JSON.parse(run.stdout).repairs[0];
        assert.deepEqual(
            [repair.certain, repair.reason, repair.after.path],
            [true, "path", "sources/service-levels.md"],
        );
        assert.match(repair.evidence, /lock's hash/);

        // By git: renamed and edited (the hash no longer matches); git still records the rename.
        fs.appendFileSync(path.join(dir, "sources/service-levels.md"), "Reviewed yearly.\n");
        git("add", ".");
        run = runCli(["repair", "--json", "answer.sourcecheck.json"], { cwd: dir });
        repair = JSON.parse(run.stdout).repairs[0];
        assert.deepEqual([repair.certain, repair.after.path], [true, "sources/service-levels.md"]);
        assert.match(repair.evidence, /git records "sources\/sla\.md" renamed to "sources\/service-levels\.md"/);
        // The check tool's "did you mean" names the file git records the rename to first (issue 44).
        const check = await diskToolRunner(dir)("check", { file: "answer.sourcecheck.json" });
        assert.ok(check.ok);
        assert.match(
            check.text,
            /no file "sources\/sla\.md" under the document root; did you mean "sources\/service-levels\.md"/,
        );
        assert.equal(runCli(["repair", "--write", "answer.sourcecheck.json"], { cwd: dir }).status, 0);
    });
});
