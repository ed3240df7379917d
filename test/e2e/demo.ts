// Facts about the demo workspace (examples/demo), computed from its files, never copied into the
// tests: where a JSON token sits in the annotation file, what a line of a cited document says.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import * as vscode from "vscode";
import { firstDifference } from "./demoGuard";
import { activateExtension, repoRoot, waitFor, wsUri } from "./harness";

export const ANNOTATIONS = "answer.sourcecheck.json";

export function annotationsUri(): vscode.Uri {
    return wsUri(ANNOTATIONS);
}

export async function openAnnotations(): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(annotationsUri());
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc;
}

export type JsonPath = (string | number)[];

/** The pointer /a/b/0 of a JSON path. */
export function pointer(path: JsonPath): string {
    return `/${path.map((p) => String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

/** The range of the JSON token at `path` in `doc` (a string token includes its quotes). */
export function tokenRange(doc: vscode.TextDocument, path: JsonPath): vscode.Range {
    const root = parseTree(doc.getText());
    assert.ok(root, `${doc.uri.path} is not JSON`);
    const node = findNodeAtLocation(root, path);
    assert.ok(node, `no ${pointer(path)} in ${doc.uri.path}`);
    return new vscode.Range(doc.positionAt(node.offset), doc.positionAt(node.offset + node.length));
}

/** The parsed value at `path` of the annotation file. */
export function valueAt<T = unknown>(doc: vscode.TextDocument, path: JsonPath): T {
    let v: unknown = JSON.parse(doc.getText());
    for (const p of path) v = (v as Record<string | number, unknown>)[p];
    return v as T;
}

export interface Boundary {
    line: number;
    str: string;
}
export interface Ref {
    path: string;
    start: Boundary;
    end: Boundary;
}

/** The text of 1-based `line` of a workspace file as SourceCheck sees it (CRLF normalised). */
export async function lineOf(path: string, line: number): Promise<string> {
    const doc = await vscode.workspace.openTextDocument(wsUri(path));
    return doc.getText().replace(/\r\n?/g, "\n").split("\n")[line - 1];
}

/** Every index where `needle` occurs in `hay`, overlapping ones included. */
export function occurrences(hay: string, needle: string): number[] {
    const found: number[] = [];
    for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) found.push(i);
    return found;
}

export interface Resolved {
    uri: vscode.Uri;
    range: vscode.Range;
    text: string;
}

/**
 * Resolves a ref by docs/contract.md section 2, independently of the server, so the server's and the client's
 * answers can be checked against it. Undefined when it does not resolve.
 */
export async function resolveRef(ref: Ref): Promise<Resolved | undefined> {
    let doc: vscode.TextDocument;
    try {
        doc = await vscode.workspace.openTextDocument(wsUri(ref.path));
    } catch {
        return undefined;
    }
    const lines = doc.getText().replace(/\r\n?/g, "\n").split("\n");
    if (ref.start.line < 1 || ref.end.line > lines.length || ref.start.line > ref.end.line) return undefined;
    const s = occurrences(lines[ref.start.line - 1], ref.start.str);
    const e = occurrences(lines[ref.end.line - 1], ref.end.str);
    if (s.length !== 1 || e.length !== 1) return undefined;
    const end = e[0] + ref.end.str.length;
    if (ref.start.line === ref.end.line && (s[0] > e[0] || s[0] + ref.start.str.length > end)) return undefined;
    const range = new vscode.Range(ref.start.line - 1, s[0], ref.end.line - 1, end);
    const text = lines.slice(ref.start.line - 1, ref.end.line).join("\n");
    const startOffset = s[0];
    const endOffset = text.length - (lines[ref.end.line - 1].length - end);
    return { uri: wsUri(ref.path), range, text: text.slice(startOffset, endOffset) };
}

/** resolveRef for refs the demo's valid annotations use: failing to resolve is a broken fixture. */
export async function resolveSimpleRef(ref: Ref): Promise<Resolved> {
    const resolved = await resolveRef(ref);
    assert.ok(resolved, `the demo ref ${JSON.stringify(ref)} should resolve`);
    return resolved;
}

/** docs/contract.md section 2: the shortest line.slice(s, s + k) that occurs once on the line. */
export function shortestUniqueStartingAt(line: string, s: number): string | undefined {
    for (let k = 1; s + k <= line.length; k++) {
        const candidate = line.slice(s, s + k);
        if (occurrences(line, candidate).length === 1) return candidate;
    }
    return undefined;
}

/** docs/contract.md section 2: the shortest line.slice(e - k, e) that occurs once on the line. */
export function shortestUniqueEndingAt(line: string, e: number): string | undefined {
    for (let k = 1; k <= e; k++) {
        const candidate = line.slice(e - k, e);
        if (occurrences(line, candidate).length === 1) return candidate;
    }
    return undefined;
}

/**
 * Where a word ends (`end`) or begins (`start`) at column p of a line, written here independently of
 * the server's Intl.Segmenter: letters, digits and marks make words; `.`, `,` and `'` between two
 * word characters (2.4, team's) stay inside the word. The line's ends count as edges.
 */
export function isWordEdge(line: string, p: number, side: "start" | "end"): boolean {
    if (side === "end" && p >= line.length) return true;
    if (side === "start" && p <= 0) return true;
    const word = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}\p{M}_]/u.test(c);
    const inside = (at: number) =>
        (word(line[at - 1]) && word(line[at])) ||
        (/[.,'’]/.test(line[at] ?? "") && word(line[at - 1]) && word(line[at + 1])) ||
        (/[.,'’]/.test(line[at - 1] ?? "") && word(line[at]) && word(line[at - 2]));
    if (inside(p)) return false;
    return side === "end" ? word(line[p - 1]) : word(line[p]);
}

/** docs/boundaries.md, `words` style, spaced scripts: the shortest unique string from s ending where a word ends. */
export function readableStartingAt(line: string, s: number, limit = line.length): string | undefined {
    for (let k = 1; s + k <= limit; k++) {
        const candidate = line.slice(s, s + k);
        if (isWordEdge(line, s + k, "end") && candidate.trim() !== "" && occurrences(line, candidate).length === 1)
            return candidate;
    }
    return undefined;
}

/** The same for an end string: the shortest unique string ending at e that begins where a word begins. */
export function readableEndingAt(line: string, e: number, limit = 0): string | undefined {
    for (let k = 1; e - k >= limit; k++) {
        const candidate = line.slice(e - k, e);
        if (isWordEdge(line, e - k, "start") && candidate.trim() !== "" && occurrences(line, candidate).length === 1)
            return candidate;
    }
    return undefined;
}

/** The workspace-relative path of a document, for messages. */
function relativeName(doc: vscode.TextDocument): string {
    return vscode.workspace.asRelativePath(doc.uri, false);
}

/**
 * Closes every editor and panel so screenshots and focus start clean; unsaved buffers are reverted
 * (never saved: a suite's unsaved edit must not reach the demo's files on disk).
 */
export async function cleanSlate(): Promise<void> {
    // A dirty editor would make closeAllGroups ask "Save changes?" and wait for ever: revert first.
    // The revert command acts on the active editor, so it runs only once that editor is the dirty
    // document's, and the document must come out clean: otherwise this fails naming it.
    for (const doc of vscode.workspace.textDocuments) {
        for (let attempt = 1; doc.isDirty && !doc.isClosed; attempt++) {
            if (attempt > 3) throw new Error(`cleanSlate could not revert the unsaved edit of ${relativeName(doc)}`);
            const editor = await vscode.window.showTextDocument(doc, { preview: false });
            if (vscode.window.activeTextEditor !== editor) continue;
            await vscode.commands.executeCommand("workbench.action.files.revert");
        }
    }
    await vscode.commands.executeCommand("workbench.action.closeAllGroups");
    await vscode.commands.executeCommand("workbench.action.closePanel");
    await vscode.commands.executeCommand("notifications.clearAll");
}

export function sourcecheckDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
    return vscode.languages.getDiagnostics(uri).filter((d) => d.source === "sourcecheck");
}

export function codeOf(d: vscode.Diagnostic): string {
    return typeof d.code === "object" && d.code !== null ? String(d.code.value) : String(d.code);
}

export function showRange(r: vscode.Range): string {
    return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

/** "code@range" of every sourcecheck diagnostic, sorted: comparable as a whole. */
export function diagnosticKeys(uri: vscode.Uri): string[] {
    return sourcecheckDiagnostics(uri)
        .map((d) => `${codeOf(d)}@${showRange(d.range)}`)
        .sort();
}

/** Waits until the server has published (or answered a pull) for the annotation file. */
export async function waitForDiagnostics(
    uri: vscode.Uri,
    accept: (ds: vscode.Diagnostic[]) => boolean,
    what: string,
    timeoutMs = 15_000,
): Promise<vscode.Diagnostic[]> {
    return waitFor(what, () => sourcecheckDiagnostics(uri), accept, timeoutMs);
}

/**
 * Puts the document's text back to `text` and saves it, so a test leaves the workspace as it found it.
 * A demo file is only ever saved as the demo has it: a `text` captured while another test's unsaved
 * edit was still in the buffer would otherwise save that edit.
 */
export async function restoreText(doc: vscode.TextDocument, text: string): Promise<void> {
    const demoFile = path.join(
        repoRoot,
        "examples",
        "demo",
        ...vscode.workspace.asRelativePath(doc.uri, false).split("/"),
    );
    if (doc.uri.scheme === "file" && fs.existsSync(demoFile)) {
        const demoText = fs.readFileSync(demoFile, "utf8").replace(/^\uFEFF/, "");
        if (text !== demoText) {
            throw new Error(
                `restoreText refuses to save ${relativeName(doc)} other than the demo has it (${firstDifference(Buffer.from(demoText), Buffer.from(text))})`,
            );
        }
    }
    if (doc.getText() !== text) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
        assert.ok(await vscode.workspace.applyEdit(edit), `could not restore ${doc.uri.path}`);
    }
    if (doc.isDirty) await doc.save();
}

/** Plain text of hover contents (markdown or strings), with markdown escapes removed. */
export function hoverText(hovers: vscode.Hover[]): string {
    return hovers
        .flatMap((h) => h.contents)
        .map((c) => (typeof c === "string" ? c : c.value))
        .join("\n")
        .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1");
}

let serverAnswered: boolean | undefined;

/**
 * Every suite's `before`: the extension is active, its language server has answered once (the first
 * suite waits up to 25 s for the demo's diagnostics; when they never came, later suites fail at once
 * instead of each waiting out its own timeouts), and the window holds no editor.
 */
export async function prepare(): Promise<void> {
    // Suites keep edits unsaved for seconds on a busy machine; auto-save (the web workbench's default,
    // after 1 s) would write them into the demo's files. scripts/e2e.mjs turns it off.
    const autoSave = vscode.workspace.getConfiguration("files").get<string>("autoSave");
    assert.equal(autoSave, "off", `files.autoSave is ${JSON.stringify(autoSave)}: unsaved test edits would be saved`);
    await activateExtension();
    if (serverAnswered === false) {
        throw new Error(
            "the SourceCheck language server never published diagnostics for the demo (see the first failure)",
        );
    }
    if (serverAnswered === undefined) {
        await openAnnotations();
        serverAnswered = false;
        await waitForDiagnostics(
            annotationsUri(),
            (ds) => ds.length > 0,
            "the language server's first diagnostics",
            25_000, // under mocha's 30 s, so this message is the one reported
        );
        serverAnswered = true;
    }
    await cleanSlate();
}

/**
 * Remove an annotation file a suite wrote. VS Code keeps a closed file's text model loaded for a while,
 * and the language client keeps it open for the server until then, so a file deleted at once would
 * still lend its claims to the answer's marks in the next suites. Emptied first (the loaded model
 * follows the disk), it lends nothing, whenever the model goes.
 */
export async function removeAnnotationFile(uri: vscode.Uri): Promise<void> {
    const empty = '{ "annotations": [] }\n';
    await vscode.workspace.fs.writeFile(uri, Buffer.from(empty));
    await waitFor(
        `the loaded model of ${vscode.workspace.asRelativePath(uri)} to be emptied`,
        () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()),
        (doc) => doc === undefined || doc.isClosed || doc.getText() === empty,
        15_000,
    );
    await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
}
