/**
 * The shape of one `sourcecheck` command (docs/cli.md): its name, usage and named exit statuses,
 * declared once. A leaf, so command modules and the registry do not import each other.
 */
import { EXIT, type ExitStatus, TRACECITE_EXIT } from "../../../shared/exitCodes";
import type { CliIo } from "./commands";

/** One exit status and what it means, as `--help` says it. */
export interface ExitCode {
    code: ExitStatus;
    meaning: string;
}

/**
 * A command's exit statuses by name. Every command has `usage` (bad usage or input) and `internal`;
 * SourceCheck's commands name `clean` 0 and `findings` 1, TraceCite's `pass` 0 and `mismatch` 2.
 */
export type ExitCodes = Readonly<{ usage: ExitCode; internal: ExitCode } & Record<string, ExitCode>>;

/** The internal error: a fault of ours, never of the input (cli/processIo.ts reportError). */
export const INTERNAL_ERROR: ExitCode = { code: EXIT.internal, meaning: "an internal error" };

/** SourceCheck's convention (docs/cli.md, "Exit status"): 0 clean, 1 findings, 2 usage or input, 3 internal. */
export function sourceCheckExits(meanings: { clean: string; findings?: string; usage?: string }): ExitCodes {
    return {
        clean: { code: EXIT.clean, meaning: meanings.clean },
        ...(meanings.findings !== undefined ? { findings: { code: EXIT.findings, meaning: meanings.findings } } : {}),
        usage: { code: EXIT.usage, meaning: meanings.usage ?? "bad usage or input" },
        internal: INTERNAL_ERROR,
    };
}

/** TraceCite's codes, kept so its users' CI scripts keep working: 0 pass, 2 mismatch, 1 bad usage or input. */
export function traceCiteExits(meanings: { pass: string; mismatch: string; usage: string }): ExitCodes {
    return {
        pass: { code: TRACECITE_EXIT.pass, meaning: meanings.pass },
        mismatch: { code: TRACECITE_EXIT.mismatch, meaning: meanings.mismatch },
        usage: { code: TRACECITE_EXIT.usage, meaning: `${meanings.usage} (TraceCite's codes)` },
        internal: INTERNAL_ERROR,
    };
}

/** `0 ...; 1 ...; 2 ...; 3 an internal error`, in the order declared. */
export function exitSummary(exits: ExitCodes): string {
    return Object.values(exits)
        .map((exit) => `${exit.code} ${exit.meaning}`)
        .join("; ");
}

export interface CliCommand {
    /** The first word on the command line, e.g. `repair`; `trace verify-files` is `trace`'s business. */
    name: string;
    /** Usage lines shown by `sourcecheck --help` and `sourcecheck NAME --help`. */
    usage: string;
    /** What each exit status means, shown under the usage. */
    exits: ExitCodes;
    /** Its options as node:util's parseArgs takes them (`--help` added to every command). */
    options: Readonly<Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }>>;
    /** Exit status; a CliError (from ./files) becomes one clear line on stderr and its exit code. */
    run(argv: string[], io: CliIo): ExitStatus | Promise<ExitStatus>;
}
