/**
 * An operation's refusal (operations/errors.ts) as the CLI reports it: one line naming the command
 * and the code, with the operation's exit status (docs/contract.md, "Operations").
 */
import { isOperationError } from "../operations/errors";
import { CliError } from "./files";

export function asCliError<T>(command: string, run: () => T): T {
    try {
        return run();
    } catch (error) {
        if (isOperationError(error)) throw new CliError(`${command}: ${error.code}: ${error.message}`, error.exitCode);
        throw error;
    }
}
