/**
 * The workspace as the language server reads it where it cannot open files itself (VS Code for the Web:
 * docs/web.md): read, stat and list by path, and changes, answered by the client's `vscode.workspace.fs`
 * over LSP requests. The checker is synchronous, the client is not: a read not yet answered is "pending",
 * and whoever checks waits for `settle()` and checks again before anything is shown (features/analysis.ts,
 * lsp/indexing.ts). On Node the disk answers at once and nothing is ever pending.
 */

export type FileKind = "file" | "directory" | "other";

export interface FileInfo {
    kind: FileKind;
    size: number;
    mtime: number;
}

export type TextRead =
    | { ok: true; text: string }
    | {
          ok: false;
          /** As safeFile.ts's reasons, plus "pending": asked for, not answered yet. */
          reason: "missing" | "directory" | "not-regular" | "too-large" | "not-text" | "error" | "pending";
          /** A clause for a sentence about the file ("is not valid UTF-8 text"). */
          message: string;
          size?: number;
      };

/** Reads that may still be on their way, for whoever must not show a half-read check. */
export interface PendingReads {
    /** True while some read asked for has not been answered. */
    hasPending(): boolean;
    /**
     * Resolves once every read asked for so far has been answered. What arrived was already told to
     * `onArrived` listeners (the workspace index drops what it decided without it): waiters only wait.
     */
    settle(): Promise<void>;
    /** A file changed (created, changed or deleted): read it again when next asked. */
    changed(path: string): void;
    /**
     * Calls `listener` with each path whose answer arrives, whoever waits for it: what was decided while
     * it was pending (a cached document, a configuration, a check) is dropped and checked again.
     */
    onArrived(listener: (path: string) => void): void;
}

export interface WorkspaceFiles extends PendingReads {
    /** A file's text, strict UTF-8 and under `maxBytes`, from what was read; "pending" while on its way. */
    readText(path: string, maxBytes: number): TextRead;
    /** What a path is, if it exists; "pending" while on its way. */
    stat(path: string): FileInfo | undefined | "pending";
    /** A folder's entries, or undefined when it cannot be listed. */
    list(directory: string): Promise<{ name: string; kind: FileKind | "symlink" }[] | undefined>;
}

/** Nothing pending ever: the disk answers synchronously (the Node language server, the CLI). */
export const SYNCHRONOUS_READS: PendingReads = {
    hasPending: () => false,
    settle: async () => undefined,
    changed: () => undefined,
    onArrived: () => undefined,
};
