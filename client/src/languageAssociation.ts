/**
 * Files matched by the `sourcecheck.annotationFiles` globs get the `sourcecheck` language (grammar,
 * schema, status), like the built-in names do through the static `filenamePatterns`. Only JSON-ish
 * documents are switched, so a language the user picked on purpose is left alone.
 */
import * as vscode from "vscode";
import { annotationFileGlobs, BUILTIN_ANNOTATION_GLOBS, isAnnotationDocument } from "./config";

const SWITCHABLE = new Set(["json", "jsonc", "plaintext"]);

function associate(document: vscode.TextDocument): void {
    if (!SWITCHABLE.has(document.languageId) || !isAnnotationDocument(document)) return;
    void vscode.languages.setTextDocumentLanguage(document, "sourcecheck").then(undefined, () => undefined);
}

export function associateAnnotationFiles(): vscode.Disposable {
    const applyToOpen = () => {
        if (annotationFileGlobs().length === BUILTIN_ANNOTATION_GLOBS.length) return;
        for (const document of vscode.workspace.textDocuments) associate(document);
    };
    applyToOpen();
    return vscode.Disposable.from(
        vscode.workspace.onDidOpenTextDocument((document) => associate(document)),
        vscode.workspace.onDidChangeConfiguration((event) => {
            if (event.affectsConfiguration("sourcecheck.annotationFiles")) applyToOpen();
        }),
    );
}
