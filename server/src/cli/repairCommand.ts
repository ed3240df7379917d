/**
 * `sourcecheck repair [--root DIR] [--since REV] [--strict] [--write] [--json] FILE` (docs/repair.md): every
 * broken ref of FILE with the refs its author meant, each naming its evidence (the lock, git history, the only reading). `--write` applies only certain repairs, in
 * place and atomically, editing just the changed tokens. Exit 0 when every ref is valid once the
 * certain repairs are applied, 1 otherwise, 2 on schema errors or bad usage.
 */

import * as nodePath from "node:path";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { ordinal } from "../../../shared/numbering";
import { LineIndex } from "../core/lines";
import { LocatedText } from "../core/parse";
import type { RepairDocuments } from "../core/repair";
import type { Ref } from "../core/types";
import { visible } from "../core/visible";
import { wordNext } from "../operations/nextWords";
import { placeLabel } from "../operations/numbers";
import { type RepairPlan, repairSteps, runSteps } from "../operations/repair";
import { lastCommitDocuments, revisionDocuments } from "../workspace/agentRevision";
import { DiskDocuments } from "../workspace/diskDocuments";
import { diskDocumentMoves, renameBase } from "../workspace/documentMoves";
import { readLockBeside, sha256 } from "../workspace/lockFiles";
import { nodeProjectConfigs } from "../workspace/nodeConfigs";
import { listCandidateDocuments } from "../workspace/nodeDiscovery";
import { formatConfigProblem, resolveDocumentRoot } from "../workspace/projectConfig";
import { sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, usageError } from "./commandLine";
import { CliError, parseMaxSize, readTextInput, readTextInputForUpdate, writeFileAtomic } from "./files";
import { jsonEnvelope } from "./jsonEnvelope";
import { asCliError } from "./operationErrors";

const USAGE = `  sourcecheck repair [--root DIR] [--since REV] [--strict] [--write [--follow-symlinks]] [--max-size BYTES] [--json] FILE
            propose the refs the broken refs of FILE meant (line shifts, misquotes, ambiguity,
            moved text, wrong paths), each naming its evidence: the lock beside FILE, the
            documents' git history since FILE's last commit (--since REV: since REV), else the
            only reading of the ref; --strict: no "only reading"; --write applies only the
            certain ones, in place`;

const SPEC: CommandSpec = {
    name: "repair",
    usage: USAGE,
    exits: sourceCheckExits({
        clean: "every ref is valid once the certain repairs are applied",
        findings: "otherwise",
        usage: "schema errors or bad usage",
    }),
};

export const repairCommand = defineCommand({
    spec: SPEC,
    options: {
        root: { type: "string" },
        since: { type: "string" },
        strict: { type: "boolean" },
        write: { type: "boolean" },
        "follow-symlinks": { type: "boolean" },
        "max-size": { type: "string" },
        json: { type: "boolean" },
    },
    run({ values, positionals }, io): ExitStatus {
        if (positionals.length !== 1) throw usageError(SPEC, " takes one FILE");
        const file = positionals[0];
        if (file === "-" && values.write) throw new CliError("repair: --write needs a FILE, not stdin");
        const absolute = file === "-" ? "-" : nodePath.resolve(io.cwd, file);
        const maxInput = parseMaxSize(values["max-size"]);
        // --write reads what it will replace with a snapshot: a change by someone else meanwhile is refused.
        const forUpdate = values.write ? readTextInputForUpdate(absolute, file, maxInput) : undefined;
        const text = forUpdate ? forUpdate.text : readTextInput(absolute, io.readStdin, file, maxInput);
        const resolution = resolveDocumentRoot(file === "-" ? nodePath.join(io.cwd, "-") : absolute, {
            explicitRoot: values.root !== undefined ? nodePath.resolve(io.cwd, values.root) : undefined,
            fallback: io.cwd,
            configs: nodeProjectConfigs(),
        });
        if (resolution.problem) throw new CliError(formatConfigProblem(resolution.problem));
        const root = resolution.root;
        const disk = new DiskDocuments(root, { maxBytes: resolution.config?.maxDocumentSize });
        const documents: RepairDocuments = {
            get: (path) => disk.get(path),
            candidatePaths: () => listCandidateDocuments(root),
            // A document renamed since the lock (its hash, git's rename record): docs/repair.md, "Renamed documents".
            moves: diskDocumentMoves(root, disk, sha256, () =>
                file === "-" ? values.since : renameBase(absolute, values.since),
            ),
        };
        const plan = asCliError("repair", () =>
            runSteps(
                repairSteps(
                    { text, since: values.since, strict: values.strict === true, detail: "full" },
                    {
                        documents,
                        lock: file === "-" ? undefined : () => readLockBeside(absolute),
                        history: {
                            at: (rev) => revisionDocuments(root, rev),
                            lastCommit: file === "-" ? undefined : () => lastCommitDocuments(root, absolute),
                        },
                        sha256,
                    },
                ),
            ),
        );
        const { result } = plan;
        const shown = file === "-" ? "<stdin>" : file;
        let written = 0;
        if (values.write && plan.repaired && plan.repaired.applied > 0) {
            writeFileAtomic(
                absolute,
                plan.repaired.text,
                { expected: forUpdate?.snapshot, followSymlinks: values["follow-symlinks"] === true },
                file,
            );
            written = plan.repaired.applied;
        }
        const exitCode = result.schemaErrors ? EXIT.usage : result.remaining.length === 0 ? EXIT.clean : EXIT.findings;
        if (values.json) io.stdout(jsonEnvelope({ ...result, written }, exitCode));
        else io.stdout(formatRepairs(shown, text, plan, values.write === true, written));
        return exitCode;
    },
});

function describeRef(ref: Ref): string {
    const q = JSON.stringify;
    return `${ref.path}:${ref.start.line} ${q(ref.start.str)} … ${ref.end.line} ${q(ref.end.str)}`;
}

function formatRepairs(file: string, text: string, plan: RepairPlan, write: boolean, written: number): string {
    const { result } = plan;
    const located = new LocatedText(text);
    const lines = new LineIndex(text);
    const at = (pointer: string) => {
        const position = lines.positionAt(located.spanOf(pointer).offset);
        return `${file}:${position.line}:${ordinal(position.column)}`;
    };
    const out: string[] = [];
    const schemaErrors = result.schemaErrors ?? [];
    for (const error of schemaErrors) out.push(`${at(error.pointer)}: ${error.code}: ${error.message}`);
    for (const repair of result.repairs) {
        out.push(
            `${at(repair.pointer)}: ${repair.reason}: ${describeRef(repair.before)} -> ${describeRef(repair.after)}${repair.certain ? ` (${repair.evidence})` : " (uncertain)"}`,
        );
    }
    for (const left of result.remaining) {
        const next = wordNext(left.next, "cli", { file, place: left });
        out.push(
            `${at(left.pointer)}: ${placeLabel(left)}: not repaired (${left.code}): ${left.message}; next: ${next}`,
        );
    }
    const certain = plan.certainCount;
    const broken = certain + result.remaining.length;
    const offered = plan.offeredCount;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    let summary = `${plural(broken, "broken ref")}: ${certain} with a certain repair, ${offered} with candidates only, ${result.remaining.length - offered} without`;
    if (schemaErrors.length > 0) summary += `; ${plural(schemaErrors.length, "schema error")}`;
    if (write && !plan.repaired) summary += "; the file does not parse, nothing written";
    else if (write) summary += written > 0 ? `; ${plural(written, "repair")} written to ${file}` : "; nothing to write";
    else if (certain > 0) summary += "; --write applies the certain ones";
    out.push(summary);
    // Names and strings from the file are shown, never acted on (docs/security.md, "Outputs").
    return `${out.map(visible).join("\n")}\n`;
}
