/**
 * The first commands of `sourcecheck` (docs/contract.md section 5): check, session, validate and
 * index, declared here and run by cli/commands.ts. `check` is also what a command line naming no
 * command runs (`sourcecheck answer.json`, `sourcecheck --json -`).
 */
import { ENTRY_VERDICTS, type EntryVerdict } from "../core/verdict";
import { globProblem, MAX_PATTERNS } from "../workspace/globs";
import { sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, usageError } from "./commandLine";
import { type OutputFormat, runCheck, runIndex, runSession, runValidate } from "./commands";
import { parseShard } from "./discovery";
import { MAX_JOBS, parseMaxSize } from "./files";

const CHECK: CommandSpec = {
    name: "check",
    usage: `  sourcecheck [check] [--json|--format text|json|sarif|github] [--root DIR] [--max-size BYTES] [FILE|-]
  sourcecheck check [options] PATH|GLOB... [--exclude GLOB]... [--jobs N] [--shard K/N] [--locked]
            [--fail-on VERDICT,...]
            resolve and validate every annotation of FILE (or stdin); documents come from the
            file's embedded session, or are files under --root (default: the folder of the nearest
            sourcecheck.config.json, else the current directory). Folders are searched for
            annotation files (.gitignore and --exclude honoured); --jobs N checks N files at once;
            --shard K/N checks the K-th of N deterministic shares. With a lock beside a file
            (sourcecheck lock), a ref whose text changed since it was locked gets the warning
            text-changed; --locked makes that, and a ref the lock lacks, an error (the CI gate).
            --fail-on V,... exits 1 when an annotation's verdict is listed (supported, refuted,
            contested, broken, none); sourcecheck.config.json's "severity" sets each code's level`,
    exits: sourceCheckExits({
        clean: "all refs resolve",
        findings: "a ref fails to resolve",
        usage: "invalid JSON, schema or usage error",
    }),
};

const SESSION: CommandSpec = {
    name: "session",
    usage: `  sourcecheck session FILE... [-o session.json [--follow-symlinks]]
            build an LF-normalised session from files, paths as given (-o writes atomically,
            never over a device, symlink or one of the FILEs: docs/security.md)`,
    exits: sourceCheckExits({ clean: "the session was written" }),
};

const VALIDATE: CommandSpec = {
    name: "validate",
    usage: `  sourcecheck validate SESSION.json ANNOTATIONS.json [--json|--format text|json|sarif|github]
            check the annotations of one file against the session of another`,
    exits: CHECK.exits,
};

const INDEX: CommandSpec = {
    name: "index",
    usage: `  sourcecheck index FILE...
            print files with 1-based line numbers, for authoring refs`,
    exits: sourceCheckExits({ clean: "the files were printed" }),
};

const FORMAT = { json: { type: "boolean" }, format: { type: "string" } } as const;

export const checkCommand = defineCommand({
    spec: CHECK,
    options: {
        ...FORMAT,
        root: { type: "string" },
        "max-size": { type: "string" },
        exclude: { type: "string", multiple: true },
        jobs: { type: "string", short: "j" },
        shard: { type: "string" },
        locked: { type: "boolean" },
        "fail-on": { type: "string" },
    },
    run({ values, positionals }, io) {
        return runCheck(
            {
                paths: positionals,
                format: outputFormat(CHECK, values.json, values.format),
                root: values.root,
                maxBytes: parseMaxSize(values["max-size"]),
                exclude: checkedGlobs(values.exclude ?? []),
                jobs: jobCount(values.jobs),
                shard: values.shard !== undefined ? parseShard(values.shard) : undefined,
                locked: values.locked === true,
                failOn: values["fail-on"] !== undefined ? failOnVerdicts(values["fail-on"]) : undefined,
            },
            io,
        );
    },
});

export const sessionCommand = defineCommand({
    spec: SESSION,
    options: { output: { type: "string", short: "o" }, "follow-symlinks": { type: "boolean" } },
    run({ values, positionals }, io) {
        return runSession(positionals, values.output, io, values["follow-symlinks"] === true);
    },
});

export const validateCommand = defineCommand({
    spec: VALIDATE,
    options: FORMAT,
    run({ values, positionals }, io) {
        if (positionals.length !== 2) throw usageError(VALIDATE, " takes SESSION.json and ANNOTATIONS.json");
        return runValidate(positionals[0], positionals[1], outputFormat(VALIDATE, values.json, values.format), io);
    },
});

export const indexCommand = defineCommand({
    spec: INDEX,
    options: {},
    run({ positionals }, io) {
        return runIndex(positionals, io);
    },
});

function outputFormat(spec: CommandSpec, json: boolean | undefined, format: string | undefined): OutputFormat {
    if (json) {
        if (format !== undefined && format !== "json")
            throw usageError(spec, `: --json contradicts --format ${format}`);
        return "json";
    }
    if (format === undefined) return "text";
    if (format === "text" || format === "json" || format === "sarif" || format === "github") return format;
    throw usageError(spec, `: unknown --format ${JSON.stringify(format)}: use text, json, sarif or github`);
}

/** `--fail-on refuted,contested`: verdicts by name, each known (docs/verdicts.md). */
function failOnVerdicts(value: string): EntryVerdict[] {
    const names = value.split(",").map((name) => name.trim());
    const unknown = names.find((name) => !(ENTRY_VERDICTS as readonly string[]).includes(name));
    if (unknown !== undefined)
        throw usageError(
            CHECK,
            `: --fail-on: unknown verdict ${JSON.stringify(unknown)}: use ${ENTRY_VERDICTS.join(", ")} (comma-separated)`,
        );
    return [...new Set(names as EntryVerdict[])];
}

/** `--exclude` globs within the wildcard budget of workspace/globs.ts, or a usage error naming the glob. */
function checkedGlobs(globs: string[]): string[] {
    if (globs.length > MAX_PATTERNS) throw usageError(CHECK, `: --exclude: at most ${MAX_PATTERNS} globs`);
    for (const glob of globs) {
        const problem = globProblem(glob);
        if (problem) throw usageError(CHECK, `: --exclude: ${problem}`);
    }
    return globs;
}

/** A whole number of at least 1, written in digits; capped at MAX_JOBS (and at the file count, later). */
function jobCount(value: string | undefined): number | undefined {
    if (value === undefined) return undefined;
    if (!/^[0-9]{1,12}$/.test(value.trim()) || Number(value) < 1)
        throw usageError(CHECK, `: --jobs must be a whole number, at least 1, not ${JSON.stringify(value)}`);
    return Math.min(Number(value), MAX_JOBS);
}
