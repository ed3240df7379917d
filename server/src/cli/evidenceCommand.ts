/**
 * `sourcecheck evidence` (docs/evidence.md): search a Markdown corpus for the passages behind a claim,
 * or run the offline evaluation of a cases file. The index is kept outside the corpus and updated
 * incrementally; every hit is re-checked against its file before it is shown.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { parseJsonText } from "../core/parse";
import { visible, visibleLines } from "../core/visible";
import { EvalCasesError, type EvalReport, evaluate, METRIC_GATES, parseCases } from "../evidence/evaluation";
import type { EvidenceIndex } from "../evidence/index";
import { MIN_BUDGET } from "../evidence/prompt";
import {
    DEFAULT_BUDGET,
    DEFAULT_TOP_K,
    type EvidenceResult,
    MAX_TOP_K,
    publicHit,
    searchEvidence,
    validateChunk,
} from "../evidence/select";
import { unsafeReason } from "../evidence/unsafe";
import { type EvidenceAnswer, searchCorpus, searchedLine } from "../workspace/evidenceSearch";
import { defaultIndexDir, openIndex, readCurrent } from "../workspace/evidenceStore";
import { sourceCheckExits } from "./command";
import { type CommandLine, type CommandSpec, defineCommand, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import { CliError, readTextInput } from "./files";
import { jsonEnvelope } from "./jsonEnvelope";

const USAGE = `  sourcecheck evidence --corpus DIR --query TEXT [--top-k N] [--budget CHARS] [--index-dir D] [--json]
  sourcecheck evidence --corpus DIR --eval CASES.json [--index-dir D] [--json]
            search the text documents of a folder for evidence (BM25 over heading-aware chunks; unsafe
            and stale sources refused; annotation, lock, notes and trace files and the answers being
            written left out); --budget: characters of the output (text: the prompt, blocks that do not
            fit are named; --json: the hits' texts, cut to fit); --eval runs the seven-metric
            evaluation, exit 0 when every gate passes; no hit under the floor (--floor SHARE, default
            0.45 of the query's weight; 0: none): matching is lexical, words not meaning.
            Also: --include GLOB, --exclude GLOB, --unsafe-pattern TEXT (each repeatable)`;

const SPEC: CommandSpec = {
    name: "evidence",
    usage: USAGE,
    exits: sourceCheckExits({
        clean: "hits listed (--eval: every gate passes)",
        findings: "an --eval gate fails",
        usage: "bad usage or corpus",
    }),
};

const OPTIONS = {
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
    floor: { type: "string" },
} as const;

function wholeNumber(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
        throw new CliError(`evidence: ${name} must be a whole number from ${min} to ${max}, not ${value}`);
    return n;
}

/** `--floor`: the abstention floor, a share of the query's weight from 0 to 1 (docs/evidence.md, "Abstention"). */
function shareOf(value: string | undefined): number | undefined {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (value.trim() === "" || !(n >= 0 && n <= 1))
        throw new CliError(`evidence: --floor must be a number from 0 to 1, not ${value}`);
    return n;
}

function run({ values, positionals }: CommandLine<typeof OPTIONS>, io: CliIo): ExitStatus {
    if (positionals.length > 0) throw usageError(SPEC, ` takes no operands, not ${positionals[0]}`);
    if (values.corpus === undefined)
        throw new CliError("evidence: give --corpus DIR (the folder of documents to search)");
    if ((values.query === undefined) === (values.eval === undefined))
        throw new CliError("evidence: give either --query TEXT or --eval CASES.json");
    if (values.query !== undefined && values.query.trim() === "") throw new CliError("evidence: --query is empty");
    const topK = wholeNumber(values["top-k"], "--top-k", 1, MAX_TOP_K, DEFAULT_TOP_K);
    const floor = shareOf(values.floor);
    const budget = wholeNumber(values.budget, "--budget", MIN_BUDGET, Number.MAX_SAFE_INTEGER, DEFAULT_BUDGET);
    const corpus = nodePath.resolve(io.cwd, values.corpus);
    if (!fs.statSync(corpus, { throwIfNoEntry: false })?.isDirectory())
        throw new CliError(`evidence: the corpus ${values.corpus} is not a folder`);
    // Read the cases before any indexing work, so a bad file fails fast.
    const cases = values.eval === undefined ? undefined : readCases(io, values.eval);
    const indexDir =
        values["index-dir"] === undefined ? defaultIndexDir() : nodePath.resolve(io.cwd, values["index-dir"]);
    const corpusOptions = {
        include: values.include,
        exclude: values.exclude,
        unsafePatterns: values["unsafe-pattern"],
        indexDir,
    };
    if (cases === undefined) {
        const json = values.json === true;
        const { answer, result, opened } = keepingIndex(indexDir, () =>
            searchCorpus(corpus, corpus, {
                ...corpusOptions,
                query: values.query!,
                topK,
                maxTextChars: budget,
                explain: json,
                promptBudget: json ? undefined : budget,
                floor,
            }),
        );
        for (const warning of opened.warnings) io.stderr(`sourcecheck: warning: ${visible(warning)}\n`);
        if (json) io.stdout(jsonEnvelope(answer, EXIT.clean));
        // Document text is shown, never acted on (docs/security.md, "Outputs").
        else io.stdout(visibleLines(textOutput(result, answer, budget)));
        return EXIT.clean;
    }
    const opened = keepingIndex(indexDir, () => openIndex(corpus, indexDir, { ...corpusOptions, wholeIndex: true }));
    for (const warning of opened.warnings) io.stderr(`sourcecheck: warning: ${visible(warning)}\n`);
    const { index } = opened;
    const read = (path: string) => readCurrent(index.root, path);
    const report = evaluate(cases, {
        search: (c) => searchEvidence(index, c.query, { topK: c.topK, budget: c.budget, read, floor }),
        isStale: (hit) => {
            const chunk = findChunk(index, hit.chunkId, hit.path);
            return chunk === undefined || !validateChunk(chunk, read(hit.path)).ok;
        },
        isUnsafe: (hit) => {
            const current = read(hit.path);
            return !current.ok || unsafeReason(current.content, index.unsafePatterns) !== undefined;
        },
    });
    io.stdout(
        values.json ? jsonEnvelope(jsonReport(report, opened), exitOf(report)) : visibleLines(textReport(report)),
    );
    return exitOf(report);
}

function exitOf(report: EvalReport): ExitStatus {
    return report.passed ? EXIT.clean : EXIT.findings;
}

/** Runs what opens the index; a folder where it cannot be kept is a usage error, not a crash. */
function keepingIndex<T>(indexDir: string, run: () => T): T {
    try {
        return run();
    } catch (error) {
        throw new CliError(`evidence: cannot keep the index in ${indexDir}: ${(error as Error).message}`);
    }
}

/**
 * The evidence prompt, the citations, then what did not make it: blocks left out by --budget (named,
 * never silently), or with no hit what was searched.
 */
function textOutput(result: EvidenceResult, answer: EvidenceAnswer, budget: number): string {
    const citations = result.hits.map((h) => h.citation).join(", ");
    const lines = [result.prompt, "", `Citations: ${citations || "(none)"}`];
    const left = Object.entries(result.rejected).filter(([, reason]) => reason === "prompt budget exceeded");
    if (left.length > 0) {
        lines.push(
            `Left out by --budget ${budget}: ${left.length} more hit(s) (${left.map(([id]) => id).join(", ")}); raise --budget or lower --top-k to see them.`,
        );
    }
    for (const passage of answer.belowFloor ?? []) {
        lines.push(
            `Below the floor (not evidence; judge it): ${passage.path}#L${passage.startLine}-L${passage.endLine} ` +
                `(${Math.round(passage.coverage * 100)}% of the query's weight): ${oneLine(passage.text)}`,
        );
    }
    if (answer.hits.length === 0 && answer.message !== undefined)
        lines.push(answer.message, searchedLine(answer.searched));
    if (answer.note !== undefined) lines.push(answer.note);
    return `${lines.join("\n")}\n`;
}

/** A passage on one line, cut at about 200 characters. */
function oneLine(text: string): string {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
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
            ...(c.rejectedOmitted === undefined ? {} : { rejectedOmitted: c.rejectedOmitted }),
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

export const evidenceCommand = defineCommand({
    spec: SPEC,
    options: OPTIONS,
    run,
});
