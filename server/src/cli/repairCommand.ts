/**
 * `sourcecheck repair [--root DIR] [--since REV] [--strict] [--write] [--json] FILE` (docs/repair.md): every
 * broken ref of FILE with the refs its author meant, each naming its evidence (the lock, git history, the only reading). `--write` applies only certain repairs, in
 * place and atomically, editing just the changed tokens. Exit 0 when every ref is valid once the
 * certain repairs are applied, 1 otherwise, 2 on schema errors or bad usage.
 */
import * as nodePath from "node:path";
import { type ParseError, parseTree } from "jsonc-parser";
import { MAX_NESTING, nestingBeyond } from "../../../shared/jsonNesting";
import { checkInput } from "../core/check";
import { LineIndex } from "../core/lines";
import { type LockFile, matchLock } from "../core/lock";
import { LocatedText, parseJsonText } from "../core/parse";
import { type AnnotationRepairs, applyCertainRepairs, type RepairDocuments, repairChecked } from "../core/repair";
import type { Ref, SchemaError } from "../core/types";
import { visible } from "../core/visible";
import { listCandidateDocuments } from "../workspace/discovery";
import { DiskDocuments } from "../workspace/diskDocuments";
import { GitRevisionDocuments, GitRevisionError, lastCommitOf } from "../workspace/gitRevision";
import { readLockBeside, sha256 } from "../workspace/lockFiles";
import { formatConfigProblem, resolveDocumentRoot } from "../workspace/projectConfig";
import { type CommandSpec, defineCommand, usageError } from "./commandLine";
import { CliError, parseMaxSize, readTextInput, readTextInputForUpdate, writeFileAtomic } from "./files";

const USAGE = `  sourcecheck repair [--root DIR] [--since REV] [--strict] [--write [--follow-symlinks]] [--max-size BYTES] [--json] FILE
            propose the refs the broken refs of FILE meant (line shifts, misquotes, ambiguity,
            moved text, wrong paths), each naming its evidence: the lock beside FILE, the
            documents' git history since FILE's last commit (--since REV: since REV), else the
            only reading of the ref; --strict: no "only reading"; --write applies only the
            certain ones, in place`;

const SPEC: CommandSpec = { name: "repair", usage: USAGE };

export const repairCommand = defineCommand({
    spec: SPEC,
    exitCodes: "0 every ref is valid once the certain repairs are applied; 1 otherwise; 2 schema errors or bad usage",
    options: {
        root: { type: "string" },
        since: { type: "string" },
        strict: { type: "boolean" },
        write: { type: "boolean" },
        "follow-symlinks": { type: "boolean" },
        "max-size": { type: "string" },
        json: { type: "boolean" },
    },
    run({ values, positionals }, io): number {
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
        });
        if (resolution.problem) throw new CliError(formatConfigProblem(resolution.problem));
        const root = resolution.root;
        const disk = new DiskDocuments(root, { maxBytes: resolution.config?.maxDocumentSize });
        let previous: GitRevisionDocuments | undefined;
        let previousLabel: string | undefined;
        if (values.since !== undefined) {
            try {
                previous = GitRevisionDocuments.open(root, values.since);
                previousLabel = values.since;
            } catch (error) {
                if (error instanceof GitRevisionError) throw new CliError(`repair: ${error.message}`);
                throw error;
            }
        }
        const lock = file === "-" ? undefined : lockBeside(absolute);
        const documents: RepairDocuments = {
            get: (path) => disk.get(path),
            candidatePaths: () => listCandidateDocuments(root),
        };

        const input = parseJsonText(text);
        const checked = checkInput(input.value, disk, input.syntaxErrors, { keepEntries: false });
        // History by default: the documents as they were at FILE's last commit, when there is one. It
        // is evidence for refs to repair only, so a file whose refs all resolve and that has no lock
        // (nothing to repair) spawns no git.
        const toRepair = checked.report.invalidCount > 0 || lock !== undefined;
        if (values.since === undefined && file !== "-" && toRepair) {
            const commit = lastCommitOf(absolute);
            if (commit !== undefined) {
                try {
                    previous = GitRevisionDocuments.open(root, commit);
                    previousLabel = `commit ${commit.slice(0, 7)} (the last commit of ${nodePath.basename(file)})`;
                } catch {
                    previous = undefined; // the root is not in that work tree: no history, as without git
                }
            }
        }
        const schemaErrors = checked.report.schemaErrors;
        const result = repairChecked(checked, {
            documents,
            previous,
            previousLabel,
            unchanged: values.strict !== true,
            sha256,
            lockedSpans: lock ? (sites) => matchLock(lock, sites, sha256).map((m) => m?.entry) : undefined,
        });
        const shown = file === "-" ? "<stdin>" : file;

        let written = 0;
        // Certain repairs are written even beside schema errors elsewhere (exit 2 still says so), but
        // only into text that parses whole once comments and trailing commas are allowed.
        const editable = values.write === true && parsesLeniently(text);
        if (values.write && editable) {
            const change = applyCertainRepairs(text, result.repairs);
            if (change.applied > 0) {
                writeFileAtomic(
                    absolute,
                    change.text,
                    { expected: forUpdate?.snapshot, followSymlinks: values["follow-symlinks"] === true },
                    file,
                );
                written = change.applied;
            }
        }
        if (values.json) {
            const json: Record<string, unknown> = { repairs: result.repairs, remaining: result.remaining };
            if (schemaErrors.length > 0) json.schemaErrors = schemaErrors;
            io.stdout(`${JSON.stringify(json, null, 2)}\n`);
        } else {
            io.stdout(formatRepairs(shown, text, result, schemaErrors, values.write === true, editable, written));
        }
        if (schemaErrors.length > 0) return 2;
        return result.remaining.length === 0 ? 0 : 1;
    },
});

function describeRef(ref: Ref): string {
    const q = JSON.stringify;
    return `${ref.path}:${ref.start.line} ${q(ref.start.str)} … ${ref.end.line} ${q(ref.end.str)}`;
}

function formatRepairs(
    file: string,
    text: string,
    result: AnnotationRepairs,
    schemaErrors: SchemaError[],
    write: boolean,
    editable: boolean,
    written: number,
): string {
    const located = new LocatedText(text);
    const lines = new LineIndex(text);
    const out: string[] = [];
    for (const error of schemaErrors) {
        const at = lines.positionAt(located.spanOf(error.pointer).offset);
        out.push(`${file}:${at.line}:${at.column + 1}: ${error.code}: ${error.message}`);
    }
    for (const repair of result.repairs) {
        const at = lines.positionAt(located.spanOf(repair.pointer).offset);
        out.push(
            `${file}:${at.line}:${at.column + 1}: ${repair.reason}: ${describeRef(repair.before)} -> ${describeRef(repair.after)}${repair.certain ? ` (${repair.evidence})` : " (uncertain)"}`,
        );
    }
    for (const left of result.remaining) {
        const pointer = `/annotations/${left.annotation}/${left.role === "claim" ? "claim" : `sources/${left.role}`}`;
        const at = lines.positionAt(located.spanOf(pointer).offset);
        out.push(
            `${file}:${at.line}:${at.column + 1}: not repaired (${left.code}): ${left.message}; next: ${left.next}`,
        );
    }
    const certain = result.repairs.filter((r) => r.certain).length;
    const broken = certain + result.remaining.length;
    const offered = new Set(result.repairs.filter((r) => !r.certain).map((r) => r.pointer)).size;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
    let summary = `${plural(broken, "broken ref")}: ${certain} with a certain repair, ${offered} with candidates only, ${result.remaining.length - offered} without`;
    if (schemaErrors.length > 0) summary += `; ${plural(schemaErrors.length, "schema error")}`;
    if (write && !editable) summary += "; the file does not parse, nothing written";
    else if (write) summary += written > 0 ? `; ${plural(written, "repair")} written to ${file}` : "; nothing to write";
    else if (certain > 0) summary += "; --write applies the certain ones";
    out.push(summary);
    // Names and strings from the file are shown, never acted on (docs/security.md, "Outputs").
    return `${out.map(visible).join("\n")}\n`;
}

function parsesLeniently(text: string): boolean {
    const errors: ParseError[] = [];
    parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    return errors.length === 0 && nestingBeyond(text, MAX_NESTING) === -1;
}

/**
 * The lock beside an annotation file (docs/lock.md), read through the one safe reader, or undefined
 * when there is none. A lock that cannot be read or used is an error (exit 2), never silently no lock.
 */
function lockBeside(annotationFile: string): LockFile | undefined {
    const read = readLockBeside(annotationFile);
    if (read.error) throw new CliError(`repair: ${read.path}: ${read.error.code}: ${read.error.message}`);
    return read.lock;
}
