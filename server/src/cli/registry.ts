/**
 * Commands beyond the four of the first wave, one module each (README, "The `sourcecheck` CLI"). Each parses its own
 * arguments, so adding a command touches only its module and one line here.
 *
 * Each module is required only when a command line names it, and the build makes each its own bundle
 * beside the CLI's (dist/citeCommand.js...: scripts/build.mjs, docs/architecture.md "CLI bundles"), so a
 * command loads only its own libraries: `check` no MCP SDK, `cite` no HTML parser.
 */
import type { CliCommand } from "./command";

const LOADERS: Record<string, () => CliCommand> = {
    cite: () => require("./citeCommand").citeCommand,
    annotate: () => require("./annotateCommand").annotateCommand,
    mcp: () => require("./mcpCommand").mcpCommand,
    evidence: () => require("./evidenceCommand").evidenceCommand,
    trace: () => require("./traceCommand").traceCommand,
    notes: () => require("./notesCommand").notesCommand,
    "report-check": () => require("./reportCheckCommand").reportCheckCommand,
    convert: () => require("./convertCommand").convertCommand,
    repair: () => require("./repairCommand").repairCommand,
    lock: () => require("./lockCommand").lockCommand,
    render: () => require("./renderCommand").renderCommand,
};

/** The first commands' module, loaded when a command line names no further command. */
export function loadFirstCommands(): typeof import("./checkCommand") {
    return require("./checkCommand") as typeof import("./checkCommand");
}

/** The names, in the order `--help` lists them; loads nothing. */
export const COMMAND_NAMES: readonly string[] = Object.keys(LOADERS);

/** The command named `name` (its module loaded now), or undefined when no command has that name. */
export function loadCommand(name: string): CliCommand | undefined {
    return Object.hasOwn(LOADERS, name) ? LOADERS[name]() : undefined;
}

/** Every command, each module loaded: for `--help`, which lists them all. */
export function allCommands(): CliCommand[] {
    return COMMAND_NAMES.map((name) => LOADERS[name]());
}
