/**
 * "SourceCheck: Import Citations from a Model Response…" (docs/import.md): a model API's response, from a
 * JSON file or the clipboard, is imported by the language server's `import` tool (`sourcecheck/agentTool`:
 * the one import operation the CLI, MCP and the library run), which writes the answer and its annotation
 * file as edits; the client saves them and opens the answer, where the new marks appear. The client
 * only picks the input and shows the outcome: it never reads a citation itself.
 */
import * as vscode from "vscode";
import { agentToolRequest } from "./customRequestTypes";
import type { SourceCheckClient } from "./languageClient";
import { ask } from "./requests";

/** The command's argument (tests, keybindings): where the response comes from, and the answer's path. */
export interface ImportCitationsArgs {
    from?: "file" | "clipboard";
    /** With `from: "file"`: the response file's URI (skips the dialog). */
    file?: string;
    /** The answer file, relative to the document root (default for a file: its name with `.md`). */
    answer?: string;
}

export type ImportCitationsResult =
    | { ok: true; answer: string; annotationFile: string; converted: number; notConverted: unknown[] }
    | { ok: false; message: string; code?: string; cancelled?: boolean };

const CANCELLED = { ok: false, cancelled: true, message: "" } as const;

export async function importCitations(
    sc: SourceCheckClient,
    args: ImportCitationsArgs,
): Promise<ImportCitationsResult> {
    const root = documentRoot();
    if (!root) return { ok: false, message: vscode.l10n.t("Open a folder first: the import writes into it.") };
    const from = args.from ?? (await pickSource());
    if (!from) return CANCELLED;
    const input = from === "file" ? await fromFile(root, args) : await fromClipboard(args);
    if ("cancelled" in input || "message" in input) return input;
    const result = await ask(sc, agentToolRequest, { name: "import", input: { ...input, write: true } });
    if (!result.ok) {
        const { code, message } = result.error;
        return { ok: false, code, message: vscode.l10n.t("Import failed ({0}): {1}", code, message) };
    }
    const json = result.structured as {
        answer: string;
        annotationFile: string;
        converted: number;
        notConverted: unknown[];
    };
    const answer = vscode.Uri.joinPath(root, json.answer);
    // The server wrote the files as edits (undoable); saved, so the answer and its annotations are on disk.
    // Saved through the document, not `workspace.save`: that saves only a file open in an editor, and
    // an edit's new file is not, so it stayed empty on disk.
    for (const uri of [answer, vscode.Uri.joinPath(root, json.annotationFile)]) {
        const document = await vscode.workspace.openTextDocument(uri);
        if (document.isDirty && !(await document.save()))
            return { ok: false, message: vscode.l10n.t("Could not save {0}.", vscode.workspace.asRelativePath(uri)) };
    }
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(answer), { preview: false });
    const total = json.converted + json.notConverted.length;
    const summary = vscode.l10n.t(
        "SourceCheck: {0} of {1} citations imported into {2}.",
        json.converted,
        total,
        json.annotationFile,
    );
    if (json.notConverted.length > 0)
        void vscode.window.showWarningMessage(
            `${summary} ${vscode.l10n.t("{0} could not be converted: run `sourcecheck import` for the reasons.", json.notConverted.length)}`,
        );
    else void vscode.window.showInformationMessage(summary);
    return { ok: true, ...json };
}

async function pickSource(): Promise<"file" | "clipboard" | undefined> {
    const picked = await vscode.window.showQuickPick(
        [
            { label: vscode.l10n.t("From a file…"), from: "file" as const },
            { label: vscode.l10n.t("From the clipboard"), from: "clipboard" as const },
        ],
        { placeHolder: vscode.l10n.t("Import citations from a model response (Anthropic, OpenAI, Gemini, Cohere)") },
    );
    return picked?.from;
}

type Input = { response: string; answer?: string } | typeof CANCELLED | { ok: false; message: string };

async function fromFile(root: vscode.Uri, args: ImportCitationsArgs): Promise<Input> {
    const picked = args.file
        ? vscode.Uri.parse(args.file)
        : (
              await vscode.window.showOpenDialog({
                  defaultUri: root,
                  canSelectMany: false,
                  filters: { JSON: ["json", "jsonl", "txt"] },
                  openLabel: vscode.l10n.t("Import"),
              })
          )?.[0];
    if (!picked) return CANCELLED;
    const relative = relativeTo(root, picked);
    // A file under the root is named by its path (the answer defaults to its name with .md); any other is read here.
    if (relative !== undefined) return { response: relative, answer: args.answer };
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(picked));
    const answer = args.answer ?? (await askAnswer(picked.path.replace(/^.*\//, "").replace(/\.[^.]*$/, ".md")));
    return answer === undefined ? CANCELLED : { response: text, answer };
}

async function fromClipboard(args: ImportCitationsArgs): Promise<Input> {
    const text = await vscode.env.clipboard.readText();
    if (text.trim() === "")
        return {
            ok: false,
            message: vscode.l10n.t("The clipboard holds no text: copy a model response's JSON first."),
        };
    const answer = args.answer ?? (await askAnswer("answer.md"));
    return answer === undefined ? CANCELLED : { response: text, answer };
}

async function askAnswer(suggested: string): Promise<string | undefined> {
    const answer = await vscode.window.showInputBox({
        prompt: vscode.l10n.t("The answer file to write, relative to the workspace folder"),
        value: suggested,
        validateInput: (value) => (value.trim() === "" ? vscode.l10n.t("Give a file name.") : undefined),
    });
    return answer?.trim() || undefined;
}

/** Where the server's agent tools work: the first workspace folder, moved by `sourcecheck.documentRoot`. */
function documentRoot(): vscode.Uri | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!folder) return undefined;
    const setting = vscode.workspace.getConfiguration("sourcecheck", folder).get<string>("documentRoot");
    if (!setting) return folder;
    return /^([\\/]|[a-zA-Z]:)/.test(setting) ? vscode.Uri.file(setting) : vscode.Uri.joinPath(folder, setting);
}

function relativeTo(root: vscode.Uri, file: vscode.Uri): string | undefined {
    if (file.scheme !== root.scheme || file.authority !== root.authority) return undefined;
    const base = root.path.endsWith("/") ? root.path : `${root.path}/`;
    return file.path.startsWith(base) ? file.path.slice(base.length) : undefined;
}
