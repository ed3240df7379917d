// `npm run bench`: speed and memory as ratios measured side by side in one run (docs/benchmarks.md).
// Writes bench/results.json and prints a table. `--smoke` runs tiny workloads only (part of npm test).
// `--only=NAME` runs one group (cli, schema, lsp, evidence, evidence-server, follow, workspaces, agents, repair,
// repair-lock, repair-slips, editor, edit-scale, lock, import, startup, web-host, session); with `--record` its rows are merged into results.json.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentCases } from "./agents.mjs";
import { evidenceCases } from "./evidence.mjs";
import { lspCases } from "./lsp.mjs";
import { quietIo, round, sideBySide } from "./measure.mjs";
import { makeWorkspace } from "./workload.mjs";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const repo = dirname(here);
const smoke = process.argv.includes("--smoke");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const { main } = require("../dist/cli.js");

const results = [];
function record(name, measured, target, detail) {
    const pass = target === undefined ? null : measured.ratio <= target;
    results.push({ name, ratio: round(measured.ratio), target: target ?? null, pass, ...detail });
    const mark = pass === null ? "    " : pass ? "PASS" : "FAIL";
    console.log(
        `${mark} ${name}: ratio ${round(measured.ratio)}${target === undefined ? "" : ` (target <= ${round(target)})`}`,
    );
}

const scratch = mkdtempSync(join(tmpdir(), "sourcecheck-bench-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

const sizes = smoke
    ? [
          { annotations: 100, totalBytes: 200_000 },
          { annotations: 1000, totalBytes: 2_000_000 },
      ]
    : [
          { annotations: 1_000, totalBytes: 1_000_000 },
          { annotations: 10_000, totalBytes: 5_000_000 },
          { annotations: 100_000, totalBytes: 50_000_000 },
      ];

/**
 * The unavoidable work for the same input: reading it, JSON.parse of the annotation file, and every
 * document read and indexed by line the way the check indexes it (core/lines.ts: the start offset of
 * each line in a Uint32Array, found with indexOf, no line strings made), so the ratio measures what
 * the check adds, not a slower way of splitting.
 */
function floor(workspace) {
    const value = JSON.parse(readFileSync(workspace.annotationFile, "utf8"));
    let lines = 0;
    for (const path of workspace.documents) lines += lineStarts(readFileSync(join(workspace.dir, path), "utf8")).length;
    return value.annotations.length + lines;
}

function lineStarts(content) {
    let count = 1;
    for (let at = content.indexOf("\n"); at !== -1; at = content.indexOf("\n", at + 1)) count++;
    const starts = new Uint32Array(count);
    let line = 1;
    for (let at = content.indexOf("\n"); at !== -1; at = content.indexOf("\n", at + 1)) starts[line++] = at + 1;
    return starts;
}

/** Targets per size: the same at every size, so no size is chosen for where the ratio looks best. */
const CHECK_TARGET = 2.0;
const CHECK_JSON_TARGET = 2.0;

function check(workspace, format = "text") {
    const status = main(
        ["check", "--format", format, "--root", workspace.dir, workspace.annotationFile],
        quietIo(workspace.dir),
    );
    if (status !== 0) throw new Error(`check exited ${status} on a workload that should be clean`);
}

async function cliCases() {
    const workspaces = sizes.map((size) =>
        makeWorkspace(join(scratch, `cli-${size.annotations}`), { ...size, documents: 20, seed: size.annotations }),
    );
    for (const [i, workspace] of workspaces.entries()) workspace.annotations = sizes[i].annotations;
    for (const workspace of workspaces) {
        const measured = await sideBySide(
            () => check(workspace),
            () => floor(workspace),
            { runs: 5, warmup: 1 },
        );
        const largest = workspace === workspaces.at(-1);
        const floorName = "read + JSON.parse + line index of every document";
        record(
            `cli check vs floor, ${workspace.annotations} annotations over ${(workspace.documentBytes / 1e6).toFixed(0)} MB`,
            { ratio: measured.ours.median / measured.baseline.median },
            smoke ? undefined : CHECK_TARGET,
            { ours: measured.ours, baseline: measured.baseline, baselineName: floorName },
        );
        // The JSON report also builds and writes every ref's text and range.
        const json = await sideBySide(
            () => check(workspace, "json"),
            () => floor(workspace),
            { runs: 5, warmup: 1 },
        );
        record(
            `cli check --json vs floor, ${workspace.annotations} annotations`,
            { ratio: json.ours.median / json.baseline.median },
            smoke ? undefined : CHECK_JSON_TARGET,
            { ours: json.ours, baseline: json.baseline, baselineName: floorName },
        );
        if (largest) {
            const rss = cliPeakRss(workspace);
            const inputMB = round((workspace.documentBytes + readFileSync(workspace.annotationFile).length) / 1e6, 1);
            results.push({
                name: `cli check peak RSS, ${workspace.annotations} annotations`,
                ratio: null,
                target: null,
                pass: null,
                peakRssMB: rss,
                inputMB,
            });
            console.log(
                `     cli check peak RSS on ${workspace.annotations} annotations (${inputMB} MB of input): ${rss} MB`,
            );
        }
    }
    // The two largest sizes are timed alternately too, so that noise cannot bend the slope.
    const [small, large] = workspaces.slice(-2);
    const scaling = await sideBySide(
        () => check(large),
        () => check(small),
        { runs: 5, warmup: 1 },
    );
    const slope =
        Math.log(scaling.ours.median / scaling.baseline.median) / Math.log(large.annotations / small.annotations);
    // The floor's own exponent, for context: JSON.parse and splitting are not linear either at this size (GC).
    const floorScaling = await sideBySide(
        () => floor(large),
        () => floor(small),
        { runs: 5, warmup: 1 },
    );
    const floorSlope =
        Math.log(floorScaling.ours.median / floorScaling.baseline.median) /
        Math.log(large.annotations / small.annotations);
    record(
        `floor scaling exponent ${small.annotations} -> ${large.annotations} (for context)`,
        { ratio: floorSlope },
        undefined,
        {
            ours: floorScaling.ours,
            baseline: floorScaling.baseline,
            baselineName: "the floor on inputs 10x smaller",
        },
    );
    record(`cli scaling exponent ${small.annotations} -> ${large.annotations} (log-log slope)`, { ratio: slope }, 1.1, {
        ours: scaling.ours,
        baseline: scaling.baseline,
        baselineName: `check of ${small.annotations} annotations (inputs 10x smaller)`,
    });
}

function cliPeakRss(workspace) {
    const script = `const { main } = require(${JSON.stringify(join(repo, "dist/cli.js"))});
        const io = { cwd: process.cwd(), stdout() {}, stderr(t) { process.stderr.write(t); }, readStdin: () => Buffer.alloc(0), stdinIsPiped: false, version: "bench" };
        main(["check", "--root", ${JSON.stringify(workspace.dir)}, ${JSON.stringify(workspace.annotationFile)}], io);
        process.stdout.write(String(process.resourceUsage().maxRSS));`;
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    return round(Number(run.stdout) / 1024, 1);
}

/** Our full check against VS Code's JSON language service validating the same file against our schema. */
async function schemaCase() {
    const { getLanguageService, TextDocument } = require("vscode-json-languageservice");
    const schema = JSON.parse(readFileSync(join(repo, "schemas/sourcecheck.schema.json"), "utf8"));
    const service = getLanguageService({});
    service.configure({
        validate: true,
        schemas: [{ uri: "sourcecheck://schema", fileMatch: ["*.sourcecheck.json"], schema }],
    });
    const annotations = smoke ? 500 : 10_000;
    const workspace = makeWorkspace(join(scratch, "schema"), {
        annotations,
        totalBytes: annotations * 500,
        documents: 20,
        seed: 7,
    });
    const text = readFileSync(workspace.annotationFile, "utf8");
    const measured = await sideBySide(
        () => check(workspace),
        async () => {
            const document = TextDocument.create("file:///bench/answer.sourcecheck.json", "json", 1, text);
            const diagnostics = await service.doValidation(
                document,
                service.parseJSONDocument(document),
                undefined,
                schema,
            );
            if (diagnostics.length > 0) throw new Error(`schema rejects the workload: ${diagnostics[0].message}`);
        },
        { runs: 5, warmup: 1 },
    );
    record(
        `full check vs vscode-json-languageservice schema validation, ${annotations} annotations`,
        { ratio: measured.ours.median / measured.baseline.median },
        1.0,
        {
            ours: measured.ours,
            baseline: measured.baseline,
            baselineName: "parseJSONDocument + doValidation (schema only)",
        },
    );
}

/** The results as a Markdown table between the bench markers of docs/benchmarks.md (written whole, then renamed). */
function writeBenchmarksTable(output) {
    const readme = join(repo, "docs", "benchmarks.md");
    const text = readFileSync(readme, "utf8");
    const start = "<!-- bench:start -->";
    const end = "<!-- bench:end -->";
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from === -1 || to < from) return;
    const cell = (side) => (side?.median === undefined ? "" : `${side.min} / ${side.median} / ${side.max}`);
    const rows = output.cases.map((c) => {
        const verdict = c.pass === null ? "reported" : c.pass ? "met" : "**missed**";
        const measured =
            c.summary ?? (c.ratio === null ? `${c.peakRssMB} MB peak RSS (${c.inputMB} MB of input)` : c.ratio);
        // Most rows are costs (lower is better); a recall or a share is a floor (`atLeast`).
        const target = c.target === null ? "" : `${c.atLeast ? ">=" : "<="} ${round(c.target, 3)}`;
        return `| ${c.name} | ${measured} | ${target} | ${verdict} | ${cell(c.ours)} | ${cell(c.baseline)} |`;
    });
    const table = [
        start,
        `Last run: Node ${output.machine.node}, ${output.machine.cpus} cores, ${output.seconds} s in all. Times in ms, min / median / max of 5-7 runs after a warm-up.`,
        "",
        "| case | ratio | target | | ours | baseline |",
        "|---|---|---|---|---|---|",
        ...rows,
        end,
    ].join("\n");
    const temp = `${readme}.bench.tmp`;
    writeFileSync(temp, text.slice(0, from) + table + text.slice(to + end.length));
    renameSync(temp, readme);
}

if (process.argv.includes("--readme-only")) {
    // Re-render the table of docs/benchmarks.md from the last results.json, without measuring.
    writeBenchmarksTable(JSON.parse(readFileSync(join(here, "results.json"), "utf8")));
    process.exit(0);
}

const started = Date.now();
if (!only || only === "cli") await cliCases();
if (!only || only === "schema") await schemaCase();
if (!only || only === "lsp") await lspCases({ scratch, smoke, record, results });
if (!only || only === "evidence") await evidenceCases({ scratch, smoke, record, results });
if (!only || only === "evidence-server")
    await (await import("./evidenceServer.mjs")).evidenceServerCases({ scratch, smoke, record });
if (!only || only === "follow") await (await import("./followEdits.mjs")).followEditsCases({ scratch, smoke, record });
if (!only || only === "workspaces")
    await (await import("./workspaces.mjs")).workspacesCases({ scratch, smoke, record, results });
if (!only || only === "agents") await agentCases({ scratch, smoke, record, results });

if (!only || only === "repair") await (await import("./repair.mjs")).repairCases({ scratch, smoke, record });
if (!only || only === "repair-lock") await (await import("./repair.mjs")).repairLockCases({ scratch, smoke, record });
if (!only || only === "repair-slips")
    await (await import("./repairSlips.mjs")).repairSlipsCases({ scratch, smoke, record });
if (!only || only === "editor") await (await import("./editor.mjs")).editorCases({ scratch, smoke, record });
if (!only || only === "edit-scale")
    await (await import("./editScale.mjs")).editScaleCases({ scratch, smoke, record, results });
if (!only || only === "lock") await (await import("./lock.mjs")).lockCases({ scratch, smoke, record });
if (!only || only === "import") await (await import("./import.mjs")).importCases({ scratch, smoke, record });
if (!only || only === "startup") await (await import("./startup.mjs")).startupCases({ scratch, smoke, record });
if (!only || only === "session") await (await import("./session.mjs")).sessionCases({ scratch, smoke, record });
if (!only || only === "web-host")
    await (await import("./webHost.mjs")).webHostCases({ scratch, smoke, record, results });
const output = {
    machine: { node: process.version, cpus: (await import("node:os")).cpus().length, smoke },
    seconds: round((Date.now() - started) / 1000, 1),
    cases: results,
};
if (!smoke && !only) {
    writeFileSync(join(here, "results.json"), `${JSON.stringify(output, null, 2)}\n`);
    writeBenchmarksTable(output);
} else if (!smoke && process.argv.includes("--record")) {
    // `--only=X --record`: this run's rows replace the rows of the same name in results.json (new ones
    // are added at the end), the rest kept as last measured; the table of docs/benchmarks.md follows.
    const last = JSON.parse(readFileSync(join(here, "results.json"), "utf8"));
    const fresh = new Map(results.map((row) => [row.name, row]));
    const cases = last.cases.map((row) => fresh.get(row.name) ?? row);
    const known = new Set(last.cases.map((row) => row.name));
    const merged = { ...last, cases: [...cases, ...results.filter((row) => !known.has(row.name))] };
    writeFileSync(join(here, "results.json"), `${JSON.stringify(merged, null, 2)}\n`);
    writeBenchmarksTable(merged);
}
const failed = results.filter((r) => r.pass === false);
console.log(
    `\n${results.filter((r) => r.pass).length} targets met, ${failed.length} missed${smoke ? " (smoke run)" : ""}`,
);
process.exitCode = smoke ? 0 : failed.length > 0 ? 1 : 0;
