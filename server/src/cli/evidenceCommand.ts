/**
 * `sourcecheck evidence` (docs/evidence.md): search a Markdown corpus for the passages behind a claim,
 * or run the offline evaluation of a cases file. The index is kept outside the corpus and updated
 * incrementally; every hit is re-checked against its file before it is shown.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { parseArgs } from "node:util";
import { parseJsonText } from "../core/parse";
import { EvalCasesError, type EvalReport, evaluate, METRIC_GATES, parseCases } from "../evidence/evaluation";
import type { EvidenceIndex } from "../evidence/index";
import { MIN_BUDGET } from "../evidence/prompt";
import { DEFAULT_BUDGET, DEFAULT_TOP_K, MAX_TOP_K, publicHit, searchEvidence, validateChunk } from "../evidence/select";
import { unsafeReason } from "../evidence/unsafe";
import { defaultIndexDir, openIndex, readCurrent } from "../workspace/evidenceStore";
import type { CliIo } from "./commands";
import { CliError, readTextInput } from "./files";
import type { CliCommand } from "./registry";

const USAGE = `  sourcecheck evidence --corpus DIR --query TEXT [--top-k N] [--budget CHARS] [--index-dir D] [--json]
  sourcecheck evidence --corpus DIR --eval CASES.json [--index-dir D] [--json]
            search a Markdown corpus for evidence (BM25 over heading-aware chunks; unsafe and stale
            sources refused); --eval runs the seven-metric evaluation, exit 0 when every gate passes.
            Also: --include GLOB, --exclude GLOB, --unsafe-pattern TEXT (each repeatable)`;

function parse(argv: string[]) {
    try {
        return parseArgs({
            args: argv,
            allowPositionals: false,
            strict: true,
            options: {
                corpus: { type: "string" },
                query: { type: "string" },
                eval: { type: "string" },
                "top-k": { type: "string" },
                budget: { type: "string" },
                "index-dir": { type: "string" },
                json: { type: "boolean" },
                include: { type: "string", multiple: true },
                exclude: { type: "string", multiple: true },
                "unsafe-pattern": { type: "string", multiple: true },
            },
        }).values;
    } catch (error) {
        throw new CliError(`evidence: ${(error as Error).message}\nUsage:\n${USAGE}`);
    }
}

function wholeNumber(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
        throw new CliError(`evidence: ${name} must be a whole number from ${min} to ${max}, not ${value}`);
    return n;
}

function run(argv: string[], io: CliIo): number {
    const values = parse(argv);
    if (values.corpus === undefined) throw new CliError("evidence: give --corpus DIR (the Markdown folder to search)");
    if ((values.query === undefined) === (values.eval === undefined))
        throw new CliError("evidence: give either --query TEXT or --eval CASES.json");
    if (values.query !== undefined && values.query.trim() === "") throw new CliError("evidence: --query is empty");
    const topK = wholeNumber(values["top-k"], "--top-k", 1, MAX_TOP_K, DEFAULT_TOP_K);
    const budget = wholeNumber(values.budget, "--budget", MIN_BUDGET, Number.MAX_SAFE_INTEGER, DEFAULT_BUDGET);
    const corpus = nodePath.resolve(io.cwd, values.corpus);
    if (!fs.statSync(corpus, { throwIfNoEntry: false })?.isDirectory())
        throw new CliError(`evidence: the corpus ${values.corpus} is not a folder`);
    // Read the cases before any indexing work, so a bad file fails fast.
    const cases = values.eval === undefined ? undefined : readCases(io, values.eval);
    const indexDir =
        values["index-dir"] === undefined ? defaultIndexDir() : nodePath.resolve(io.cwd, values["index-dir"]);
    let opened: ReturnType<typeof openIndex>;
    try {
        opened = openIndex(corpus, indexDir, {
            include: values.include,
            exclude: values.exclude,
            unsafePatterns: values["unsafe-pattern"],
        });
    } catch (error) {
        throw new CliError(`evidence: cannot keep the index in ${indexDir}: ${(error as Error).message}`);
    }
    for (const warning of opened.warnings) io.stderr(`sourcecheck: warning: ${warning}\n`);
    const { index } = opened;
    const read = (path: string) => readCurrent(index.root, path);
    if (cases === undefined) {
        const result = searchEvidence(index, values.query!, { topK, budget, read, explain: values.json === true });
        if (values.json) {
            io.stdout(`${JSON.stringify({ hits: result.hits.map(publicHit), rejected: result.rejected }, null, 2)}\n`);
        } else {
            const citations = result.hits.map((h) => h.citation).join(", ");
            io.stdout(`${result.prompt}\n\nCitations: ${citations || "(none)"}\n`);
        }
        return 0;
    }
    const report = evaluate(cases, {
        search: (c) => searchEvidence(index, c.query, { topK: c.topK, budget: c.budget, read }),
        isStale: (hit) => {
            const chunk = findChunk(index, hit.chunkId, hit.path);
            return chunk === undefined || !validateChunk(chunk, read(hit.path)).ok;
        },
        isUnsafe: (hit) => {
            const current = read(hit.path);
            return !current.ok || unsafeReason(current.content, index.unsafePatterns) !== undefined;
        },
    });
    io.stdout(values.json ? `${JSON.stringify(jsonReport(report, opened), null, 2)}\n` : textReport(report));
    return report.passed ? 0 : 1;
}

function readCases(io: CliIo, file: string) {
    const text = readTextInput(file === "-" ? "-" : nodePath.resolve(io.cwd, file), io.readStdin, file);
    const parsed = parseJsonText(text);
    if (parsed.syntaxErrors.length > 0) throw new CliError(`evidence: ${file} is not valid JSON`);
    try {
        return parseCases(parsed.value);
    } catch (error) {
        if (error instanceof EvalCasesError) throw new CliError(`evidence: ${file}: ${error.message}`);
        throw error;
    }
}

function findChunk(index: EvidenceIndex, chunkId: string, path: string) {
    const record = index.document(path);
    if (!record) return undefined;
    for (let slot = record.firstSlot; slot < record.firstSlot + record.chunkCount; slot++) {
        const chunk = index.chunk(slot);
        if (chunk?.id === chunkId) return chunk;
    }
    return undefined;
}

function jsonReport(report: EvalReport, opened: ReturnType<typeof openIndex>) {
    return {
        passed: report.passed,
        exitCode: report.passed ? 0 : 1,
        metrics: report.metrics,
        gates: report.gates,
        sync: opened.report,
        cases: report.cases.map((c) => ({
            caseId: c.caseId,
            query: c.query,
            expectedSources: c.expectedSources,
            forbiddenSources: c.forbiddenSources,
            selectedSources: c.selectedSources,
            hits: c.hits.map(publicHit),
            rejected: c.rejected,
            promptChars: c.promptChars,
            topK: c.topK,
            budget: c.budget,
        })),
    };
}

function textReport(report: EvalReport): string {
    const lines: string[] = [];
    for (const c of report.cases) {
        const hits = c.hits.map((h) => `${h.citation} ${h.score}`).join("; ") || "(abstained)";
        lines.push(`${c.caseId}: ${hits} [${c.promptChars} chars]`);
    }
    lines.push("");
    for (const [name, gate] of Object.entries(METRIC_GATES)) {
        const value = report.metrics[name as keyof typeof METRIC_GATES];
        const passed = report.gates[name as keyof typeof METRIC_GATES].passed;
        const bound = `${gate.at === "least" ? ">=" : "<="} ${gate.value}`;
        lines.push(`${passed ? "PASS" : "FAIL"} ${name} ${Number(value.toFixed(6))} (gate ${bound})`);
    }
    lines.push("", `RESULT: ${report.passed ? "OK" : "FAIL"}`);
    return `${lines.join("\n")}\n`;
}

export const evidenceCommand: CliCommand = { name: "evidence", usage: USAGE, run };
