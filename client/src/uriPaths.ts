/**
 * A URI as a path, by its scheme (docs/web.md): `fsPath` means something only for a `file:` URI. In VS
 * Code for the Web the workspace is `vscode-vfs:` (github.dev) or another scheme, whose URIs are shown
 * whole and matched by their path. This is the one client module that reads `fsPath`
 * (test/unit/uriSchemes.test.ts holds every other to it).
 */
import type * as vscode from "vscode";

/** What a person reads: the file system path of a `file:` URI, else the whole URI. */
export function displayPath(uri: vscode.Uri): string {
    return uri.scheme === "file" ? uri.fsPath : uri.toString(true);
}

/** A document filter's pattern matching exactly this URI among its scheme's (the path for any other scheme). */
export function filterPattern(uri: vscode.Uri): string {
    return uri.scheme === "file" ? uri.fsPath : uri.path;
}

/** The file system path, for what only the disk can hold (an index, a log folder); none on another scheme. */
export function fileSystemPath(uri: vscode.Uri): string | undefined {
    return uri.scheme === "file" ? uri.fsPath : undefined;
}
