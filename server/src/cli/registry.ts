/**
 * Every `sourcecheck` command, by name, in the order `--help` lists them (docs/cli.md). Each module
 * is loaded only when a command line names it, so a command loads only its own libraries: `check`
 * no MCP SDK, `cite` no HTML parser (docs/architecture.md, "CLI bundles").
 */
import type { CliCommand } from "./command";

const LOADERS: Record<string, () => CliCommand> = {
    check: () => require("./checkCommand").checkCommand,
    session: () => require("./checkCommand").sessionCommand,
    validate: () => require("./checkCommand").validateCommand,
    index: () => require("./checkCommand").indexCommand,
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
    import: () => require("./importCommand").importCommand,
    review: () => require("./reviewCommand").reviewCommand,
};

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
