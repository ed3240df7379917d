/**
 * One way for every command to read its arguments (README, "The `sourcecheck` CLI"): node:util's parseArgs, strict,
 * with `-h`/`--help` added; a parse error or a wrong number of operands is a usage error that names
 * the command and shows its usage, with the command's own exit code for bad usage.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { closestStrings } from "../core/editDistance";
import type { CliCommand } from "./command";
import type { CliIo } from "./commands";
import { CliError } from "./files";

type Options = NonNullable<ParseArgsConfig["options"]>;

const HELP = { help: { type: "boolean", short: "h" } } as const;

export interface CommandSpec {
    /** As typed: `render`, `trace verify-files`. */
    name: string;
    usage: string;
    /** The exit code of a usage error: 2 for SourceCheck's commands, 1 for TraceCite's. */
    exitCode?: number;
    /** Said after a parse error, e.g. how to pass an operand that starts with `-`. */
    hint?: string;
}

export type CommandLine<O extends Options> = ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: O & typeof HELP }>
>;

export function parseCommandLine<const O extends Options>(
    spec: CommandSpec,
    argv: string[],
    options: O,
): CommandLine<O> {
    const all = { ...options, ...HELP };
    try {
        return parseArgs({ args: argv, allowPositionals: true, strict: true, options: all });
    } catch (error) {
        throw usageError(spec, `: ${parseErrorMessage(error as Error & { code?: string }, all)}${spec.hint ?? ""}`);
    }
}

/** `--root DIR` (the document root) and `--json`, which most commands take. */
export const ROOT_AND_JSON = { root: { type: "string" }, json: { type: "boolean" } } as const;

/** A command defined by its spec, options and work: the arguments read one way, `--help` answered first. */
export interface CommandDefinition<O extends Options> {
    spec: CommandSpec;
    /** What each exit status means (CliCommand.exitCodes). */
    exitCodes: string;
    options: O;
    run(line: CommandLine<O>, io: CliIo): number | Promise<number>;
}

/** The CliCommand of a definition: parse (a usage error names the command), `--help`, then `run`. */
export function defineCommand<const O extends Options>(definition: CommandDefinition<O>): CliCommand {
    const { spec } = definition;
    return {
        name: spec.name,
        usage: spec.usage,
        exitCodes: definition.exitCodes,
        run(argv, io) {
            const line = parseCommandLine(spec, argv, definition.options);
            if ((line.values as { help?: boolean }).help) return printUsage(io, spec);
            return definition.run(line, io);
        },
    };
}

/**
 * Node's parse errors, in our words: its unknown-option message ends with an unbalanced quote and
 * advice about `--`; ours names the option and, when one is close, the option meant.
 */
export function parseErrorMessage(error: Error & { code?: string }, options: Options): string {
    const unknown = /^Unknown option '([^']*)'/.exec(error.message);
    if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && unknown) {
        const names = Object.entries(options).flatMap(([name, o]) => [
            `--${name}`,
            ...(o.short ? [`-${o.short}`] : []),
        ]);
        const meant = closestStrings(unknown[1], names, 2)[0];
        return `unknown option ${unknown[1]}${meant ? ` (did you mean ${meant}?)` : ""}`;
    }
    return error.message;
}

/** `--help`: the usage on stdout, exit 0. */
export function printUsage(io: CliIo, spec: CommandSpec): number {
    io.stdout(`Usage:\n${spec.usage}\n`);
    return 0;
}

/** `message` follows the command's name: `" takes one FILE"`, `": unknown option"`. */
export function usageError(spec: CommandSpec, message: string): CliError {
    return new CliError(`${spec.name}${message}`, spec.exitCode ?? 2, spec.usage);
}
