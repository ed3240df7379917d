/** The shape of one `sourcecheck` command module (a leaf, so command modules and the registry do not import each other). */
import type { CliIo } from "./commands";

export interface CliCommand {
    /** The first word on the command line, e.g. `repair`; `trace verify-files` is `trace`'s business. */
    name: string;
    /** Usage lines shown by `sourcecheck --help` and `sourcecheck NAME --help`. */
    usage: string;
    /** What each exit status means, shown under the usage: `0 ...; 1 ...; 2 bad usage`. */
    exitCodes: string;
    /** Exit status; a CliError (from ./files) becomes one clear line on stderr and its exit code. */
    run(argv: string[], io: CliIo): number | Promise<number>;
}

/** `check`, `session`, `validate`, `index` and `help`: cli/checkCommand.ts, the rest cli/registry.ts. */
export const FIRST_COMMANDS: ReadonlySet<string> = new Set(["check", "session", "validate", "index", "help"]);
