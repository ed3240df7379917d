/**
 * `sourcecheck annotate` (docs/annotate.md): one annotation built from verbatim quotes, each cited as
 * `cite` cites it, and with --write appended to FILE atomically, formatting kept. Exit 0 built (and
 * written), 1 a quote could not be cited (or a source cites its own claim), 2 bad input.
 */

import * as fs from "node:fs";
import * as nodePath from "node:path";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { annotationLabel, indexOfOrdinal } from "../../../shared/numbering";
import { type AnnotateRequest, editAnnotationFile, roleName } from "../core/annotate";
import { visible } from "../core/visible";
import { annotate } from "../operations/annotate";
import { DiskDocuments } from "../workspace/diskDocuments";
import { nodeProjectConfigs } from "../workspace/nodeConfigs";
import { listCandidateDocuments } from "../workspace/nodeDiscovery";
import { formatConfigProblem, resolveDocumentRoot } from "../workspace/projectConfig";
import { sourceCheckExits } from "./command";
import { type CommandLine, type CommandSpec, defineCommand, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import { CliError, readTextInput, readTextInputForUpdate, writeFileAtomic } from "./files";
import { jsonEnvelope } from "./jsonEnvelope";
import { asCliError } from "./operationErrors";

const USAGE = `  sourcecheck annotate [--root DIR] [--write] [--json] FILE --claim PATH QUOTE
                     --source supports|refutes CONFIDENCE PATH QUOTE [--source ...]
  sourcecheck annotate [--root DIR] [--write] [--json] FILE -
            one annotation from verbatim quotes (each cited as cite cites it; - reads
            { "claim": { "path", "quote" }, "sources": [ { "path", "quote", "polarity", "confidence" } ] }
            from stdin); --write appends it to FILE (created when missing); exit 1 when a quote
            cannot be cited or a source cites its own claim
  --replace N   put it in place of annotation N of FILE (counted from 1, as printed) instead;
                refused (exit 1, replace-mismatch) when N claims other text, unless --force
  sourcecheck annotate [--root DIR] [--write] [--json] FILE --remove N
            remove annotation N (counted from 1); with --write the file is rewritten without it
  sourcecheck annotate [--root DIR] [--write] [--json] FILE --claim PATH QUOTE --unsourced
            record the claim as searched with no source found (the file's "unsourced" list, which
            check reports apart from claims never searched); with --remove N, remove entry N`;

const SPEC: CommandSpec = {
    name: "annotate",
    usage: USAGE,
    exits: sourceCheckExits({
        clean: "built (and written)",
        findings: "a quote could not be cited or a source cites its own claim",
    }),
};

const OPTIONS = {
    root: { type: "string" },
    write: { type: "boolean" },
    json: { type: "boolean" },
    replace: { type: "string" },
    remove: { type: "string" },
    force: { type: "boolean" },
    unsourced: { type: "boolean" },
} as const;
/** `--claim PATH QUOTE` and `--source POLARITY CONFIDENCE PATH QUOTE`: operands taken verbatim (commandLine.ts). */
const GROUPS = { claim: 2, source: 4 } as const;

interface Parsed {
    file: string;
    root?: string;
    write: boolean;
    json: boolean;
    stdin: boolean;
    claim?: { path: string; quote: string };
    sources: AnnotateRequest["sources"][number][];
    /** `--replace N` / `--remove N`: annotation N, counted from 1. */
    replace?: number;
    remove?: number;
    /** `--force`: replace even when the replaced claim's text differs. */
    force: boolean;
    /** `--unsourced`: the claim goes to the file's unsourced list (or `--remove N` removes entry N of it). */
    unsourced: boolean;
}

/** A 1-based annotation number operand. */
function annotationNumber(option: string, value: string | undefined): number | undefined {
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(number) || number < 1) {
        throw usageError(SPEC, `: ${option} takes an annotation number from 1, not ${JSON.stringify(value)}`);
    }
    return number;
}

function source([polarity, confidence, path, quote]: string[]): AnnotateRequest["sources"][number] {
    if (polarity !== "supports" && polarity !== "refutes") {
        throw usageError(SPEC, `: --source polarity must be supports or refutes, not ${JSON.stringify(polarity)}`);
    }
    const value = Number(confidence);
    if (confidence.trim() === "" || !Number.isFinite(value) || value < 0 || value > 1) {
        throw usageError(SPEC, `: --source confidence must be a number from 0 to 1, not ${JSON.stringify(confidence)}`);
    }
    return { polarity, confidence: value, path, quote };
}

/** The parsed command line in the command's terms: FILE, `-` for stdin, the quotes, the edit. */
function parse({ values, positionals, groups }: CommandLine<typeof OPTIONS, typeof GROUPS>): Parsed {
    if (values.replace !== undefined && values.remove !== undefined)
        throw usageError(SPEC, ": give one --replace or --remove");
    if (groups.claim.length > 1) throw usageError(SPEC, ": --claim is given twice (one claim per annotation)");
    const [file, stdin, ...rest] = positionals;
    if (file === undefined) throw usageError(SPEC, " takes the annotation FILE");
    if ((stdin !== undefined && stdin !== "-") || rest.length > 0)
        throw usageError(SPEC, `: unexpected operand ${JSON.stringify(stdin !== "-" ? stdin : rest[0])}`);
    const claim = groups.claim[0];
    return {
        file,
        root: values.root,
        write: values.write === true,
        json: values.json === true,
        stdin: stdin === "-",
        claim: claim ? { path: claim[0], quote: claim[1] } : undefined,
        sources: groups.source.map(source),
        replace: annotationNumber("--replace", values.replace),
        remove: annotationNumber("--remove", values.remove),
        force: values.force === true,
        unsourced: values.unsourced === true,
    };
}

/** The request read from stdin: `{ claim, sources }` (extra keys of the MCP arguments, `file` and `write`, ignored). */
function requestFromJson(text: string): AnnotateRequest {
    let value: unknown;
    try {
        value = JSON.parse(text);
    } catch (error) {
        throw new CliError(`annotate: stdin is not JSON: ${(error as Error).message}`);
    }
    const bad = (what: string) => new CliError(`annotate: stdin: ${what}`);
    const object = value as { claim?: unknown; sources?: unknown };
    if (typeof value !== "object" || value === null) throw bad("expected { claim, sources }");
    const quote = (item: unknown, where: string) => {
        const q = item as { path?: unknown; quote?: unknown };
        if (typeof q !== "object" || q === null || typeof q.path !== "string" || typeof q.quote !== "string") {
            throw bad(`${where} needs a path and a quote (strings)`);
        }
        if (q.path === "" || q.quote === "") throw bad(`${where}: path and quote must not be empty`);
        return { path: q.path, quote: q.quote };
    };
    const claim = quote(object.claim, "claim");
    if (!Array.isArray(object.sources) || object.sources.length === 0) throw bad("sources must be a non-empty array");
    const sources = object.sources.map((item: unknown, index: number) => {
        const where = `sources/${index}`;
        const base = quote(item, where);
        const { polarity, confidence } = item as { polarity?: unknown; confidence?: unknown };
        if (polarity !== "supports" && polarity !== "refutes")
            throw bad(`${where}: polarity must be supports or refutes`);
        if (typeof confidence !== "number" || !(confidence >= 0 && confidence <= 1)) {
            throw bad(`${where}: confidence must be a number from 0 to 1`);
        }
        return { ...base, polarity, confidence } as AnnotateRequest["sources"][number];
    });
    return { claim, sources };
}

export const annotateCommand = defineCommand({
    spec: SPEC,
    options: OPTIONS,
    groups: GROUPS,
    run(line, io: CliIo): ExitStatus {
        const args = parse(line);
        if (args.unsourced) return unsourcedCommand(args, io);
        if (args.remove !== undefined) {
            if (args.stdin || args.claim || args.sources.length > 0)
                throw usageError(SPEC, ": --remove N takes no quotes");
            return removeAnnotationCommand(args, args.file, args.remove, io);
        }
        let request: AnnotateRequest;
        if (args.stdin) {
            if (args.claim || args.sources.length > 0)
                throw usageError(SPEC, ": give the quotes as options or on stdin, not both");
            if (!io.stdinIsPiped)
                throw new CliError("annotate: FILE - reads the request from stdin, but nothing is piped");
            request = requestFromJson(readTextInput("-", io.readStdin));
        } else {
            if (!args.claim) throw usageError(SPEC, " needs --claim PATH QUOTE");
            if (args.sources.length === 0) throw usageError(SPEC, " needs at least one --source");
            request = { claim: args.claim, sources: args.sources };
        }
        const { absolute, resolution, documents } = annotationTarget(args, io);
        // Read with a snapshot: the write replaces exactly this file, and only while it is unchanged.
        const existing = fs.existsSync(absolute) ? readTextInputForUpdate(absolute, args.file) : undefined;
        const text = existing?.text;

        // The operation the annotate tools run too (operations/annotate.ts).
        const outcome = asCliError("annotate", () =>
            annotate(
                { file: args.file, ...request, replace: args.replace, force: args.force },
                { documents, files: () => listCandidateDocuments(resolution.root), text },
            ),
        );
        if (!outcome.ok) return reportFailure(outcome, args, io);
        const { done } = outcome;
        // An equal annotation already in the file (a retry) is reported, the file left as it is.
        const write = args.write === true && done.kind !== "present";
        if (write) writeFileAtomic(absolute, done.text, { expected: existing?.snapshot }, args.file);
        if (args.json) {
            io.stdout(jsonEnvelope({ ...done.output, written: write }, EXIT.clean));
        } else {
            const label = annotationLabel(indexOfOrdinal(done.output.annotation as number));
            const what =
                done.kind === "present"
                    ? `${label} of ${args.file} is already present (same claim and sources): nothing appended`
                    : done.kind === "replace"
                      ? args.write
                          ? `replaced ${label} of ${args.file}`
                          : `${label} of ${args.file} would be replaced, not written (add --write to replace it)`
                      : args.write
                        ? `wrote ${label} to ${args.file}`
                        : `${label} of ${args.file}, not written (add --write to append it)`;
            const notes = done.warnings.map((w) => `${roleName(w.role)}: ${w.code}: ${visible(w.message)}\n`).join("");
            io.stdout(`${visible(what)}\n${visible(JSON.stringify(done.output.cited))}\n${notes}`);
        }
        return EXIT.clean;
    },
});

/**
 * The operation's failure as the annotate tools return it (docs/contract.md, "Next steps"): a document
 * that cannot be had, or a path that names none, is bad input; an uncitable quote is not.
 */
function reportFailure(
    outcome: Extract<ReturnType<typeof annotate>, { ok: false }>,
    args: Parsed,
    io: CliIo,
): ExitStatus {
    const { candidates, ...error } = outcome.error;
    const exitCode = outcome.badInput ? EXIT.usage : EXIT.findings;
    if (args.json) io.stdout(jsonEnvelope(candidates ? { error, candidates } : { error }, exitCode));
    else io.stderr(`sourcecheck: ${error.code}: ${visible(error.message)}\n`);
    return exitCode;
}

/** The annotation file's absolute path, its document root (as `check` finds it) and the documents there. */
function annotationTarget(args: Parsed, io: CliIo) {
    const absolute = nodePath.resolve(io.cwd, args.file);
    const resolution = resolveDocumentRoot(absolute, {
        explicitRoot: args.root !== undefined ? nodePath.resolve(io.cwd, args.root) : undefined,
        fallback: io.cwd,
        configs: nodeProjectConfigs(),
    });
    if (resolution.problem) throw new CliError(formatConfigProblem(resolution.problem));
    const documents = new DiskDocuments(resolution.root, { maxBytes: resolution.config?.maxDocumentSize });
    return { absolute, resolution, documents };
}

/**
 * `--unsourced`: the claim recorded as searched with no source found, or `--remove N` removing entry N
 * of the unsourced list; the annotate operation does it (operations/annotate.ts), as the tools do.
 */
function unsourcedCommand(args: Parsed, io: CliIo): ExitStatus {
    if (args.stdin || args.sources.length > 0 || args.replace !== undefined)
        throw usageError(SPEC, ": --unsourced takes --claim PATH QUOTE (or --remove N) and no --source or --replace");
    if ((args.claim === undefined) === (args.remove === undefined))
        throw usageError(SPEC, ": --unsourced takes --claim PATH QUOTE or --remove N");
    const { absolute, resolution, documents } = annotationTarget(args, io);
    const existing = fs.existsSync(absolute) ? readTextInputForUpdate(absolute, args.file) : undefined;
    const outcome = asCliError("annotate", () =>
        annotate(
            { file: args.file, claim: args.claim, remove: args.remove, unsourced: true },
            { documents, files: () => listCandidateDocuments(resolution.root), text: existing?.text },
        ),
    );
    if (!outcome.ok) return reportFailure(outcome, args, io);
    const { done } = outcome;
    const write = args.write && done.kind !== "present";
    if (write) writeFileAtomic(absolute, done.text, { expected: existing?.snapshot }, args.file);
    if (args.json) {
        io.stdout(jsonEnvelope({ ...done.output, written: write }, EXIT.clean));
        return EXIT.clean;
    }
    const verb = done.kind === "remove" ? "removed" : "recorded";
    const what =
        done.kind === "present"
            ? `${done.what} is already recorded (searched, no source found): nothing appended`
            : write
              ? `${verb} ${done.what}`
              : `${done.what} would be ${verb}, not written (add --write)`;
    const cited = done.output.cited === undefined ? "" : `${visible(JSON.stringify(done.output.cited))}\n`;
    io.stdout(`${visible(what)}\n${cited}`);
    return EXIT.clean;
}

/** A missing annotation said as people count (from 1); other refusals as they are. */
function fromOne(refused: { message: string; count?: number }, file: string, number: number | undefined): string {
    if (refused.count === undefined || number === undefined) return refused.message;
    const held = refused.count === 0 ? "it has none" : `it has ${refused.count}, numbered 1 to ${refused.count}`;
    return `${file} has no ${annotationLabel(indexOfOrdinal(number))} (${held})`;
}

/** `--remove N`: the file without annotation N, written only with --write (exit 0), else shown. */
function removeAnnotationCommand(args: Parsed, file: string, number: number, io: CliIo): ExitStatus {
    const absolute = nodePath.resolve(io.cwd, file);
    if (!fs.existsSync(absolute)) throw new CliError(`annotate: ${file} does not exist; there is nothing to remove`);
    const existing = readTextInputForUpdate(absolute, file);
    const removed = editAnnotationFile(existing.text, file, { kind: "remove", index: indexOfOrdinal(number) });
    if (!removed.ok) throw new CliError(`annotate: ${fromOne(removed, file, number)}`);
    if (args.write) writeFileAtomic(absolute, removed.text, { expected: existing.snapshot }, file);
    if (args.json) {
        io.stdout(jsonEnvelope({ annotation: number, removed: true, written: args.write }, EXIT.clean));
    } else {
        io.stdout(
            args.write
                ? `removed ${annotationLabel(indexOfOrdinal(number))} from ${visible(file)}\n`
                : `${annotationLabel(indexOfOrdinal(number))} of ${visible(file)} would be removed, not written (add --write to remove it)\n`,
        );
    }
    return EXIT.clean;
}
