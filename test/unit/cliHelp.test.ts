/**
 * The CLI contract (docs/cli.md), walked over the registry: every command answers `--help` (exit 0)
 * with its usage and exit statuses, refuses an unknown option with its usage status and the nearest
 * option, and reaches every exit status it declares. A command added without a row here fails.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../server/src/cli";
import { exitSummary } from "../../server/src/cli/command";
import type { CliIo } from "../../server/src/cli/commands";
import { CliError, isCliError } from "../../server/src/cli/files";
import { allCommands, COMMAND_NAMES } from "../../server/src/cli/registry";
import { runCli, runCliAsync } from "./cliRun";

const COMMANDS = allCommands();
const repo = path.resolve(__dirname, "../../..");
const tracecite = path.join(repo, "test/fixtures/tracecite");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sc-help-"));

const DOC = "alpha beta gamma\nsecond line here\n";
const ref = (line: number, start: string, end: string) => ({
    path: "doc.md",
    start: { line, str: start },
    end: { line, str: end },
});
const annotations = (sourceEnd: string) =>
    JSON.stringify({
        annotations: [
            {
                claim: ref(1, "alpha", "beta"),
                sources: [{ ...ref(2, "second", sourceEnd), polarity: "supports", confidence: 0.9 }],
            },
        ],
    });
fs.writeFileSync(path.join(work, "doc.md"), DOC);
fs.writeFileSync(path.join(work, "good.sourcecheck.json"), annotations("line"));
fs.writeFileSync(path.join(work, "broken.sourcecheck.json"), annotations("nowhere"));
// Cohere v1 responses for import: one citing doc.md's second line, one citing a document no file holds.
const cohere = (snippet: string) =>
    JSON.stringify({
        text: "The answer cites it.",
        citations: [{ start: 4, end: 10, text: "answer", document_ids: ["d"] }],
        documents: [{ id: "d", snippet }],
    });
fs.writeFileSync(path.join(work, "import-good.json"), cohere("second line here"));
fs.writeFileSync(path.join(work, "import-missing.json"), cohere("a text in no file"));
fs.writeFileSync(path.join(work, "session.json"), JSON.stringify({ documents: [{ path: "doc.md", content: DOC }] }));
fs.mkdirSync(path.join(work, "corpus"));
fs.writeFileSync(path.join(work, "corpus", "a.md"), "# Title\n\nalpha beta gamma text\n");
fs.writeFileSync(
    path.join(work, "cases.json"),
    JSON.stringify({ cases: [{ case_id: "x", query: "alpha", expected_sources: ["missing.md"] }] }),
);
const indexDir = fs.mkdtempSync(path.join(os.tmpdir(), "sc-help-index-"));
/** A git history for `review`: its last commit adds the broken file. */
const reviewRepo = fs.mkdtempSync(path.join(os.tmpdir(), "sc-help-review-"));
for (const args of [
    ["init", "-q"],
    ["add", "doc.md", "good.sourcecheck.json"],
    ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base"],
    ["add", "broken.sourcecheck.json"],
    ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "broken"],
]) {
    if (args[0] === "init") {
        for (const file of ["doc.md", "good.sourcecheck.json", "broken.sourcecheck.json"])
            fs.copyFileSync(path.join(work, file), path.join(reviewRepo, file));
    }
    spawnSync("git", args, { cwd: reviewRepo });
}

const NOTE_QUOTE = "example.com and example.org are maintained for documentation purposes.";
const REPORT_QUOTE = "example.com and example.net are maintained for documentation purposes.";
const IANA = "https://www.iana.org/help/example-domains";

/** One run meant to end with a given status: its arguments, folder and the pages a fetch gets. */
interface Reach {
    args: string[];
    cwd?: string;
    pages?: Record<string, string>;
    /** Run as a process (`mcp` serves the process's own stdin). */
    process?: true;
}

const evidence = ["--corpus", "corpus", "--index-dir", indexDir];
const annotate = (quote: string) => [
    "new.sourcecheck.json",
    "--claim",
    "doc.md",
    "alpha",
    "--source",
    "supports",
    "0.9",
    "doc.md",
    quote,
];

/** For each command, a run reaching each exit status it declares (3, the internal error, is tested for all below). */
const REACH: Record<string, Record<number, Reach>> = {
    check: { 0: { args: ["good.sourcecheck.json"] }, 1: { args: ["broken.sourcecheck.json"] }, 2: { args: ["--jsn"] } },
    session: { 0: { args: ["doc.md"] }, 2: { args: [] } },
    validate: {
        0: { args: ["session.json", "good.sourcecheck.json"] },
        1: { args: ["session.json", "broken.sourcecheck.json"] },
        2: { args: ["session.json"] },
    },
    index: { 0: { args: ["doc.md"] }, 2: { args: ["missing.md"] } },
    cite: { 0: { args: ["doc.md", "beta gamma"] }, 1: { args: ["doc.md", "zzz"] }, 2: { args: ["doc.md"] } },
    annotate: { 0: { args: annotate("second") }, 1: { args: annotate("zzz") }, 2: { args: [] } },
    mcp: { 0: { args: ["--root", "."], process: true }, 2: { args: ["operand"] } },
    evidence: {
        0: { args: [...evidence, "--query", "alpha"] },
        1: { args: [...evidence, "--eval", "cases.json"] },
        2: { args: ["--query", "alpha"] },
    },
    trace: {
        0: { args: ["verify-files", "fixtures/codex-two-run-after.jsonl"], cwd: tracecite },
        2: { args: ["verify-files", "fixtures/codex-two-run-before.jsonl"], cwd: tracecite },
        1: { args: ["fixtures/none.jsonl"], cwd: tracecite },
    },
    notes: {
        0: { args: ["fixtures/simple-citation.md"], cwd: tracecite, pages: { [IANA]: NOTE_QUOTE } },
        2: { args: ["fixtures/simple-citation.md"], cwd: tracecite, pages: {} },
        1: { args: ["fixtures/none.md"], cwd: tracecite },
    },
    "report-check": {
        0: { args: ["fixtures/report-wrong-quote.md"], cwd: tracecite, pages: { [IANA]: REPORT_QUOTE } },
        2: { args: ["fixtures/report-wrong-quote.md"], cwd: tracecite, pages: {} },
        1: { args: ["fixtures/report-wrong-quote.md", "extra"], cwd: tracecite },
    },
    convert: {
        0: { args: ["fixtures/simple-citation.md"], cwd: tracecite, pages: { [IANA]: NOTE_QUOTE } },
        1: { args: ["fixtures/simple-citation.md"], cwd: tracecite, pages: {} },
        2: { args: ["--bogus"] },
    },
    repair: { 0: { args: ["good.sourcecheck.json"] }, 1: { args: ["broken.sourcecheck.json"] }, 2: { args: [] } },
    lock: { 0: { args: ["good.sourcecheck.json"] }, 1: { args: ["broken.sourcecheck.json"] }, 2: { args: [] } },
    render: { 0: { args: ["good.sourcecheck.json"] }, 1: { args: ["broken.sourcecheck.json"] }, 2: { args: [] } },
    import: {
        0: { args: ["import-good.json", "--document", "d=doc.md"] },
        1: { args: ["import-missing.json"] },
        2: { args: [] },
    },
    review: {
        0: { args: ["--base", "HEAD"], cwd: reviewRepo },
        1: { args: ["--base", "HEAD~1"], cwd: reviewRepo },
        2: { args: [] },
    },
};

function reach(
    name: string,
    how: Reach,
): Promise<{ status: number; stdout: string; stderr: string }> | { status: number; stdout: string; stderr: string } {
    const cwd = how.cwd ?? work;
    if (how.process) {
        const cli = path.join(repo, "out/server/src/cli.js");
        const run = spawnSync(process.execPath, [cli, name, ...how.args], { cwd, input: "", encoding: "utf8" });
        return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
    }
    const pages = how.pages ?? {};
    const fetchPage: CliIo["fetchPage"] = async (url) =>
        Object.hasOwn(pages, url)
            ? { ok: true, text: pages[url] }
            : { ok: false, code: "HTTP_STATUS_404", message: "HTTP 404" };
    return runCliAsync([name, ...how.args], { cwd, fetchPage });
}

describe("CLI: the contract of every command in the registry", () => {
    it("every command is listed here with a run for each exit status it declares, and none it does not", () => {
        assert.deepEqual(Object.keys(REACH).sort(), [...COMMAND_NAMES].sort());
        for (const command of COMMANDS) {
            const declared = Object.values(command.exits)
                .map((exit) => exit.code)
                .filter((code) => code !== 3);
            assert.deepEqual(Object.keys(REACH[command.name]).map(Number).sort(), declared.sort(), command.name);
        }
    });

    for (const name of COMMAND_NAMES) {
        it(`${name}: every exit status it declares is reachable`, async () => {
            const command = COMMANDS.find((c) => c.name === name);
            assert.ok(command);
            for (const [code, how] of Object.entries(REACH[name])) {
                const run = await reach(name, how);
                assert.equal(run.status, Number(code), `${name} ${how.args.join(" ")}: ${run.stderr}`);
            }
        });
    }

    it("every command's JSON output is one envelope: its fields, then ok and exitCode naming the exit status", async () => {
        let envelopes = 0;
        for (const command of COMMANDS) {
            // `review` says JSON with --format json; every other command that has JSON with --json.
            const asJson = command.options.json ? ["--json"] : command.name === "review" ? ["--format", "json"] : [];
            if (asJson.length === 0) continue;
            for (const [code, how] of Object.entries(REACH[command.name])) {
                const run = await reach(command.name, { ...how, args: [...how.args, ...asJson] });
                const said = `${command.name} ${how.args.join(" ")} ${asJson.join(" ")}`;
                assert.equal(run.status, Number(code), `${said}: ${run.stderr}`);
                // A command line the parser refused has no JSON to give: its usage goes to stderr.
                if (run.stdout === "" && run.status === command.exits.usage.code) continue;
                const json = JSON.parse(run.stdout);
                assert.equal(typeof json, "object", said);
                assert.deepEqual([json.ok, json.exitCode], [run.status === 0, run.status], `${said}: ${run.stdout}`);
                envelopes++;
            }
        }
        // check, validate, cite, annotate, evidence, trace, notes, report-check, convert, repair, lock,
        // import and review each give at least their clean run's envelope.
        assert.ok(envelopes >= 24, `${envelopes} envelopes`);
    });

    it("every command: an internal error (here, stdout failing) exits 3 with one line, no stack trace", async () => {
        for (const command of COMMANDS) {
            assert.equal(command.exits.internal.code, 3);
            let stderr = "";
            const io: CliIo = {
                cwd: work,
                stdout: () => {
                    throw new Error("EIO: the terminal went away");
                },
                stderr: (text) => {
                    stderr += text;
                },
                readStdin: () => Buffer.alloc(0),
                stdinIsPiped: false,
                version: "test",
            };
            assert.equal(await main([command.name, "--help"], io), 3, command.name);
            assert.equal(stderr, "sourcecheck: internal error: EIO: the terminal went away\n");
        }
    });

    it("every command: --help, -h and `help NAME` print its usage and exit statuses (exit 0)", () => {
        for (const command of COMMANDS) {
            const expected = `Usage:\n${command.usage.trimEnd()}\n\nExit status: ${exitSummary(command.exits)}\n`;
            for (const args of [
                [command.name, "--help"],
                [command.name, "-h"],
                ["help", command.name],
            ]) {
                const run = runCli(args, { cwd: work });
                assert.equal(run.status, 0, args.join(" "));
                assert.equal(run.stdout, expected, args.join(" "));
            }
        }
    });

    it("every command: an unknown option exits with its usage status, naming the option meant", () => {
        for (const command of COMMANDS) {
            const option = Object.keys(command.options).find((name) => name.length > 3 && name !== "help");
            const typo = option ? `--${option.slice(0, -1)}` : "--hepl";
            const meant = option ? `--${option}` : "--help";
            const run = runCli([command.name, typo], { cwd: work });
            assert.equal(run.status, command.exits.usage.code, command.name);
            const said = `sourcecheck: ${command.name}: unknown option ${typo} (did you mean ${meant}?)`;
            assert.ok(run.stderr.startsWith(said), `${command.name}: ${run.stderr}`);
            assert.ok(run.stderr.includes(`\nUsage:\n${command.usage}\n`), `${command.name}: ${run.stderr}`);
        }
        const convert = runCli(["convert", "--jsn", "x"], { cwd: work });
        assert.equal(convert.status, 2);
        assert.match(convert.stderr, /^sourcecheck: convert: unknown option --jsn \(did you mean --json\?\)/);
    });

    it("SourceCheck's commands exit 0/1/2/3; only trace, notes and report-check keep TraceCite's 0/2/1", () => {
        for (const command of COMMANDS) {
            const codes = Object.fromEntries(Object.entries(command.exits).map(([name, exit]) => [name, exit.code]));
            if (["trace", "notes", "report-check"].includes(command.name)) {
                assert.deepEqual(codes, { pass: 0, mismatch: 2, usage: 1, internal: 3 }, command.name);
                assert.match(exitSummary(command.exits), /\(TraceCite's codes\)/);
            } else {
                assert.equal(codes.clean, 0, command.name);
                assert.equal(codes.usage, 2, command.name);
                assert.equal(codes.internal, 3, command.name);
                if (codes.findings !== undefined) assert.equal(codes.findings, 1, command.name);
            }
        }
    });

    it("sourcecheck --help lists every command with its exit statuses", () => {
        const run = runCli(["--help"], { cwd: work });
        assert.equal(run.status, 0);
        for (const command of COMMANDS) {
            assert.ok(run.stdout.includes(command.usage.trimEnd()), `${command.name}'s usage`);
            assert.ok(
                run.stdout.includes(`exit status: ${exitSummary(command.exits)}`),
                `${command.name}'s exit statuses`,
            );
        }
    });

    it("an unknown command names the nearest commands and exits 2", () => {
        const run = runCli(["reapir", "answer.json"], { cwd: work });
        assert.equal(run.status, 2);
        assert.match(run.stderr, /^sourcecheck: unknown command "reapir"; the nearest: repair, /);
        assert.equal(run.stdout, "");
    });

    it("a word that names a file or folder is still checked, not taken for a command", () => {
        fs.writeFileSync(path.join(work, "answers"), "[]");
        const run = runCli(["answers"], { cwd: work });
        assert.doesNotMatch(run.stderr, /unknown command/);
        assert.equal(run.status, 0, run.stderr);
    });

    it("a CliError is recognised by its code, whichever copy of the module made it", () => {
        assert.ok(isCliError(new CliError("x", 1)));
        const fromAnotherCopy = Object.assign(new Error("x"), { code: "sourcecheck-cli-error", exitCode: 2 });
        assert.ok(isCliError(fromAnotherCopy));
        assert.ok(!isCliError(new Error("x")));
        assert.ok(!isCliError({ code: "sourcecheck-cli-error" }), "an exit code is part of it");
    });
});
