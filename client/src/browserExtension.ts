/**
 * The extension's `browser` entry (VS Code for the Web: docs/web.md): the same activation as the desktop's
 * extension.ts, built for a web worker extension host, where the language server runs in a web worker of
 * its own (web/serverConnection.ts, swapped in by the web build) and reads files through
 * `vscode.workspace.fs`.
 */
export { activate, deactivate } from "./extension";
