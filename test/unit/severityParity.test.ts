/**
 * Severity per code (docs/codes.md, "Severity per code") on every front end at once: one workspace,
 * one `sourcecheck.config.json` whose `severity` changes between cases, and the level of each code
 * read back from the CLI's text, JSON, SARIF and GitHub outputs, the MCP `check` tool and the language
 * service's diagnostics. The expected levels and exits are written out by hand per case (the oracle),
 * not computed by core/severity.ts.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { DiagnosticSeverity } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { runTool } from "../../server/src/agentTools/tools";
import { createLanguageService } from "../../server/src/languageService";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { NODE_HOST } from "../../server/src/workspace/nodeHost";
import { runCli } from "./cliRun";

type Level = "error" | "warning" | "info";
/** What every front end must show: the level of each code reported (absent: not reported), and the exit. */
interface Expected {
    levels: Record<string, Level>;
    exit: number;
}

const DOC = "The median SCOP was 2.9 over the winter.\nA second line of evidence here.\n";
const ANSWER = {
    annotations: [
        {
            // Resolves; its source is fine: supported.
            claim: { path: "doc.md", start: { line: 1, str: "The median" }, end: { line: 1, str: "2.9" } },
            sources: [
                {
                    path: "doc.md",
                    start: { line: 2, str: "A second" },
                    end: { line: 2, str: "evidence" },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
        {
            // The source's start string is not on its line: boundary-not-found.
            claim: { path: "doc.md", start: { line: 1, str: "over" }, end: { line: 1, str: "winter." } },
            sources: [
                {
                    path: "doc.md",
                    start: { line: 2, str: "A third" },
                    end: { line: 2, str: "here." },
                    polarity: "supports",
                    confidence: 0.5,
                },
            ],
        },
        {
            // The source is the claim itself: self-citation (a warning of its own).
            claim: { path: "doc.md", start: { line: 2, str: "second line" }, end: { line: 2, str: "of" } },
            sources: [
                {
                    path: "doc.md",
                    start: { line: 2, str: "second line" },
                    end: { line: 2, str: "of" },
                    polarity: "supports",
                    confidence: 0.5,
                },
            ],
        },
    ],
};

const CASES: { name: string; severity?: Record<string, string>; expected: Expected }[] = [
    {
        name: "no severity: each code at its own level",
        expected: { levels: { "boundary-not-found": "error", "self-citation": "warning" }, exit: 1 },
    },
    {
        name: "a ref failure as a warning does not fail",
        severity: { "boundary-not-found": "warning" },
        expected: { levels: { "boundary-not-found": "warning", "self-citation": "warning" }, exit: 0 },
    },
    {
        name: "off: not reported, does not fail",
        severity: { "boundary-not-found": "off", "self-citation": "off" },
        expected: { levels: {}, exit: 0 },
    },
    {
        name: "a warning made an error fails",
        severity: { "boundary-not-found": "info", "self-citation": "error" },
        expected: { levels: { "boundary-not-found": "info", "self-citation": "error" }, exit: 1 },
    },
];

const OUR_CODES = new Set(["boundary-not-found", "self-citation"]);

function setUp(severity?: Record<string, string>): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sc-severity-"));
    fs.writeFileSync(path.join(root, "doc.md"), DOC);
    fs.writeFileSync(path.join(root, "answer.sourcecheck.json"), `${JSON.stringify(ANSWER, null, 2)}\n`);
    fs.writeFileSync(path.join(root, "sourcecheck.config.json"), JSON.stringify(severity ? { severity } : {}));
    return root;
}

function ours(levels: [string, Level][]): Record<string, Level> {
    const out: Record<string, Level> = {};
    for (const [code, level] of levels) {
        if (!OUR_CODES.has(code)) continue;
        assert.equal(out[code], undefined, `${code} reported once`);
        out[code] = level;
    }
    return out;
}

function cliLevels(root: string) {
    const args = ["check", "answer.sourcecheck.json"];
    const text = runCli(args, { cwd: root });
    const json = runCli([...args, "--json"], { cwd: root });
    const sarif = runCli([...args, "--format", "sarif"], { cwd: root });
    const github = runCli([...args, "--format", "github"], { cwd: root });
    const sarifResults = JSON.parse(sarif.stdout).runs[0].results as { ruleId: string; level: string }[];
    const githubLines = github.stdout.split("\n").filter((line) => line.startsWith("::"));
    const levelOf = (word: string): Level => (word === "note" || word === "notice" ? "info" : (word as Level));
    return {
        exits: { text: text.status, json: json.status, sarif: sarif.status, github: github.status },
        jsonExit: JSON.parse(json.stdout).exitCode as number,
        textCodes: [...OUR_CODES].filter((code) => text.stdout.includes(`: ${code}: `)),
        textWarnings: /, (\d+) warnings?/.exec(text.stdout)?.[1],
        sarif: ours(sarifResults.map((r) => [r.ruleId, levelOf(r.level)])),
        github: ours(
            githubLines.map((line) => {
                const match = /^::(\w+) .*title=sourcecheck ([\w-]+)::/.exec(line);
                assert.ok(match, line);
                return [match[2], levelOf(match[1])];
            }),
        ),
    };
}

function serviceLevels(root: string, settings?: Record<string, string>) {
    const open = new Map<string, TextDocument>();
    const service = createLanguageService({
        ...NODE_HOST,
        documents: { get: (uri) => open.get(uri) },
        logger: { error: (message) => assert.fail(message) },
        events: { changed() {}, removed() {}, refsCanFollow() {} },
    });
    service.initialize({ rootPath: root, initializationOptions: settings ? { severity: settings } : undefined });
    const file = path.join(root, "answer.sourcecheck.json");
    const document = TextDocument.create(pathToFileURL(file).href, "sourcecheck", 1, fs.readFileSync(file, "utf8"));
    open.set(document.uri, document);
    const report = service.diagnostics(document.uri, undefined).report;
    assert.equal(report.kind, "full");
    const levelOf = (severity: DiagnosticSeverity | undefined): Level =>
        severity === DiagnosticSeverity.Error ? "error" : severity === DiagnosticSeverity.Warning ? "warning" : "info";
    return ours(report.items.map((d) => [String(d.code), levelOf(d.severity)]));
}

describe("severity per code: one level on every front end", () => {
    for (const { name, severity, expected } of CASES) {
        it(name, async () => {
            const root = setUp(severity);
            try {
                const cli = cliLevels(root);
                assert.deepEqual(cli.exits, {
                    text: expected.exit,
                    json: expected.exit,
                    sarif: expected.exit,
                    github: expected.exit,
                });
                assert.equal(cli.jsonExit, expected.exit);
                assert.deepEqual(cli.textCodes, Object.keys(expected.levels).sort());
                const warnings = Object.values(expected.levels).filter((l) => l === "warning").length;
                assert.equal(cli.textWarnings, warnings > 0 ? String(warnings) : undefined);
                assert.deepEqual(cli.sarif, expected.levels);
                assert.deepEqual(cli.github, expected.levels);

                const tool = await runTool("check", { file: "answer.sourcecheck.json" }, diskToolContext(root));
                assert.ok(tool.ok);
                assert.equal(tool.structured.exitCode, expected.exit);
                assert.equal(tool.structured.ok, expected.exit === 0);

                assert.deepEqual(serviceLevels(root), expected.levels);
            } finally {
                fs.rmSync(root, { recursive: true, force: true });
            }
        });
    }

    it("the editor's setting wins over the configuration, code by code", () => {
        const root = setUp({ "boundary-not-found": "off", "self-citation": "error" });
        try {
            assert.deepEqual(serviceLevels(root, { "boundary-not-found": "warning" }), {
                "boundary-not-found": "warning",
                "self-citation": "error",
            });
        } finally {
            fs.rmSync(root, { recursive: true, force: true });
        }
    });

    it("schema codes keep failing, and a wrong level is reported on its token", () => {
        const root = setUp({ schema: "off", "boundary-not-found": "loud" });
        try {
            const run = runCli(["check", "answer.sourcecheck.json"], { cwd: root });
            assert.equal(run.status, 2, run.stdout + run.stderr);
            assert.match(run.stderr, /"schema" is a schema error: it always fails the check/);
        } finally {
            fs.rmSync(root, { recursive: true, force: true });
        }
    });
});
