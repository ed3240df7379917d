/**
 * The one way every command reads its arguments (docs/cli.md): a command is declared once (name,
 * usage, named exit statuses, options) and parsed by node:util's parseArgs, strict, with `-h`/`--help`
 * added. The only addition is options that take several operands (`annotate --claim PATH QUOTE`),
 * which parseArgs cannot express: those are taken out first, then everything else goes to parseArgs.
 * A parse error or a wrong number of operands is a usage error that names the command, shows its
 * usage and exits with the command's own usage status.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { closestStrings } from "../core/editDistance";
import { type CliCommand, type ExitCodes, exitSummary } from "./command";
import type { CliIo } from "./commands";
import { CliError } from "./files";

type Options = NonNullable<ParseArgsConfig["options"]>;
/** Options that take a fixed number of operands each time they are given: `{ claim: 2, source: 4 }`. */
type Groups = Readonly<Record<string, number>>;

const HELP = { help: { type: "boolean", short: "h" } } as const;

export interface CommandSpec {
    /** As typed: `render`, `trace verify-files`. */
    name: string;
    usage: string;
    /** The command's exit statuses; a usage error exits with `exits.usage`. */
    exits: ExitCodes;
    /** Said after a parse error, e.g. how to pass an operand that starts with `-`. */
    hint?: string;
}

export type CommandLine<O extends Options, G extends Groups = Record<never, number>> = ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: O & typeof HELP }>
> & {
    /** Each multi-operand option's operands, one array per time it was given. */
    groups: { [K in keyof G]: string[][] };
};

/** Parse `argv` by `options` (and `groups`); a usage error of `spec` otherwise. */
export function parseCommandLine<const O extends Options, const G extends Groups = Record<never, number>>(
    spec: CommandSpec,
    argv: string[],
    options: O,
    groups?: G,
): CommandLine<O, G> {
    const all = { ...options, ...HELP };
    const taken = takeGroups(spec, argv, groups ?? {});
    try {
        const line = parseArgs({ args: taken.rest, allowPositionals: true, strict: true, options: all });
        return { ...line, groups: taken.groups as CommandLine<O, G>["groups"] };
    } catch (error) {
        const names = optionNames(all).concat(Object.keys(groups ?? {}).map((name) => `--${name}`));
        throw usageError(spec, `: ${parseErrorMessage(error as Error & { code?: string }, names)}${spec.hint ?? ""}`);
    }
}

/** Multi-operand options out of `argv`, each with its operands taken verbatim (a quote may start with `-`). */
function takeGroups(spec: CommandSpec, argv: string[], groups: Groups) {
    const taken: Record<string, string[][]> = Object.fromEntries(Object.keys(groups).map((name) => [name, []]));
    const rest: string[] = [];
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === "--") {
            rest.push(...argv.slice(i));
            break;
        }
        const name = arg.startsWith("--") ? arg.slice(2) : undefined;
        if (name === undefined || !Object.hasOwn(groups, name)) {
            rest.push(arg);
            continue;
        }
        const operands = argv.slice(i + 1, i + 1 + groups[name]);
        if (operands.length < groups[name]) throw usageError(spec, `: ${arg} takes ${groups[name]} operands`);
        taken[name].push(operands);
        i += groups[name];
    }
    return { groups: taken, rest };
}

function optionNames(options: Options): string[] {
    return Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
}

/** `--root DIR` (the document root) and `--json`, which most commands take. */
export const ROOT_AND_JSON = { root: { type: "string" }, json: { type: "boolean" } } as const;

/** One way of a command with its own options: `trace verify-files`, `trace compare`. */
export interface SubcommandDefinition<O extends Options> {
    options: O;
    run(line: CommandLine<O>, io: CliIo): ExitStatus | Promise<ExitStatus>;
}

/** A subcommand with its options typed, for CommandDefinition.subcommands. */
export function subcommand<const O extends Options>(
    definition: SubcommandDefinition<O>,
): SubcommandDefinition<Options> {
    return definition as unknown as SubcommandDefinition<Options>;
}

/** A command: its spec (name, usage, exit statuses), its options, and its work on the parsed line. */
export interface CommandDefinition<O extends Options, G extends Groups = Record<never, number>> {
    spec: CommandSpec;
    options: O;
    /** Options taking several operands each (`{ claim: 2 }`): CommandLine.groups. */
    groups?: G;
    /** Words that, given first, select other options and work (`trace compare`). */
    subcommands?: Readonly<Record<string, SubcommandDefinition<Options>>>;
    run(line: CommandLine<O, G>, io: CliIo): ExitStatus | Promise<ExitStatus>;
}

/** The CliCommand of a definition: parse (a usage error names the command), `--help`, then `run`. */
export function defineCommand<const O extends Options, const G extends Groups = Record<never, number>>(
    definition: CommandDefinition<O, G>,
): CliCommand {
    const { spec } = definition;
    return {
        name: spec.name,
        usage: spec.usage,
        exits: spec.exits,
        options: {
            ...definition.options,
            ...Object.fromEntries(
                Object.keys(definition.groups ?? {}).map((name) => [name, { type: "string" as const, multiple: true }]),
            ),
            ...HELP,
        },
        run(argv, io) {
            const sub = argv[0] !== undefined ? definition.subcommands?.[argv[0]] : undefined;
            if (sub && Object.hasOwn(definition.subcommands ?? {}, argv[0])) {
                const subSpec = { ...spec, name: `${spec.name} ${argv[0]}` };
                const line = parseCommandLine(subSpec, argv.slice(1), sub.options);
                if ((line.values as { help?: boolean }).help) return printUsage(io, spec);
                return sub.run(line, io);
            }
            const line = parseCommandLine(spec, argv, definition.options, definition.groups);
            if ((line.values as { help?: boolean }).help) return printUsage(io, spec);
            return definition.run(line, io);
        },
    };
}

/**
 * Node's parse errors, in our words: its unknown-option message ends with an unbalanced quote and
 * advice about `--`; ours names the option and, when one is close, the option meant.
 */
export function parseErrorMessage(error: Error & { code?: string }, names: readonly string[]): string {
    const unknown = /^Unknown option '([^']*)'/.exec(error.message);
    if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && unknown) {
        const meant = closestStrings(unknown[1], [...names], 2)[0];
        return `unknown option ${unknown[1]}${meant ? ` (did you mean ${meant}?)` : ""}`;
    }
    return error.message;
}

/** A command's `--help`: its usage and what each exit status means. */
export function commandHelp(spec: Pick<CommandSpec, "usage" | "exits">): string {
    return `Usage:\n${spec.usage.trimEnd()}\n\nExit status: ${exitSummary(spec.exits)}\n`;
}

/** `--help`: the usage and exit statuses on stdout, exit 0. */
export function printUsage(io: CliIo, spec: CommandSpec): ExitStatus {
    io.stdout(commandHelp(spec));
    return EXIT.clean;
}

/** `message` follows the command's name: `" takes one FILE"`, `": unknown option"`. */
export function usageError(spec: CommandSpec, message: string): CliError {
    return new CliError(`${spec.name}${message}`, spec.exits.usage.code, spec.usage);
}

/** Bad input (unreadable or invalid, not the command line): the command's usage status, without the usage. */
export function inputError(spec: CommandSpec, message: string): CliError {
    return new CliError(`${spec.name}: ${message}`, spec.exits.usage.code);
}
