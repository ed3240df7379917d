/**
 * The one `--json` envelope of every command (docs/cli.md, "JSON output"): the command's own fields,
 * then `ok` and `exitCode`, where `exitCode` is the process's exit status and `ok` is `exitCode === 0`.
 */
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";

/** The envelope as the command prints it: indented, one final newline. */
export function jsonEnvelope(fields: object, exitCode: ExitStatus): string {
    return `${JSON.stringify({ ...fields, ok: exitCode === EXIT.clean, exitCode }, null, 2)}\n`;
}
