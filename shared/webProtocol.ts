/**
 * What the language server in a web worker asks the client (docs/web.md, docs/custom-protocol.md): it has
 * no file system, so it reads, stats and lists through the client's `vscode.workspace.fs`, by URI. The
 * client decodes text (strict UTF-8, no NUL bytes) and enforces the size cap before sending it.
 */
import { RequestType } from "vscode-languageserver-protocol";

export interface WebReadParams {
    uri: string;
    /** Larger files are answered `too-large` (with their size), not sent. */
    maxBytes: number;
}

export type WebReadResult =
    | { kind: "text"; text: string }
    | { kind: "missing" | "directory" | "binary" | "not-utf8" | "error"; message?: string }
    | { kind: "too-large"; size: number };

export type WebFileKind = "file" | "directory" | "symlink" | "other";

export interface WebStatResult {
    /** Absent when nothing is there. */
    stat?: { kind: WebFileKind; size: number; mtime: number };
}

export interface WebListResult {
    /** Absent when the folder cannot be listed. */
    entries?: { name: string; kind: WebFileKind }[];
}

export const webReadRequest = new RequestType<WebReadParams, WebReadResult, void>("sourcecheck/web/readFile");
export const webStatRequest = new RequestType<{ uri: string }, WebStatResult, void>("sourcecheck/web/stat");
export const webListRequest = new RequestType<{ uri: string }, WebListResult, void>("sourcecheck/web/readDirectory");
