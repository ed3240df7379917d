/**
 * The browser's twin of workspace/safeWrite.ts (docs/web.md): the server in a web worker writes no
 * file. Edits of annotation files reach the client as WorkspaceEdits (one undo), as on the desktop;
 * what the desktop writes directly (a lock kept by the editor, the agent tools' writes) is refused with
 * a sentence saying so, never an error.
 */
// What a reader saw of a file: the desktop's type (type-only), so reads in both builds agree.
export type { FileSnapshot } from "../safeWrite";

export type SafeWriteCode = "io-error";

export class SafeWriteError extends Error {
    constructor(
        readonly code: SafeWriteCode,
        message: string,
    ) {
        super(message);
    }
}

export type WriteContent = string | Uint8Array | ((write: (bytes: Uint8Array) => void) => void);

export function writeFileSafely(_target: string, _content: WriteContent, _options: object = {}): void {
    throw new SafeWriteError("io-error", "cannot be written from VS Code for the Web (docs/web.md)");
}

export function describeWriteError(shown: string, error: unknown): string {
    if (error instanceof SafeWriteError) return `cannot write ${shown}: it ${error.message}`;
    return `cannot write ${shown}: ${String(error)}`;
}
