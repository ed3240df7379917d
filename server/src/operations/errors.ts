/**
 * An operation's refusal (docs/contract.md, "Operations"): a stable code and a message for people.
 * Each front end turns it into its own failure (a CLI exit status, a tool error) without rewording.
 */
import { EXIT } from "../../../shared/exitCodes";

export type OperationErrorCode =
    | "invalid-arguments"
    | "invalid-lock"
    | "unreadable-document"
    | "path-outside-root"
    | "write-failed"
    | "replace-mismatch"
    | "no-such-annotation"
    | "no-such-source";

export class OperationError extends Error {
    /** Told apart by this, not by `instanceof`: each CLI bundle holds its own copy of this module. */
    readonly operationError = true;

    constructor(
        readonly code: OperationErrorCode,
        message: string,
        /** Exit status in the CLI: 2 bad input (the default), 1 a finding (a refused replace). */
        readonly exitCode: typeof EXIT.findings | typeof EXIT.usage = EXIT.usage,
    ) {
        super(message);
    }
}

export function isOperationError(value: unknown): value is OperationError {
    return (
        typeof value === "object" && value !== null && (value as { operationError?: unknown }).operationError === true
    );
}
