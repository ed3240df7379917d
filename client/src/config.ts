/** Settings and the annotation-file naming rule (docs/contract.md section 4), read in one place. */

import * as vscode from "vscode";
import type { DocumentSelector } from "vscode-languageclient/node";
import { ANNOTATION_FILE_GLOBS } from "../../shared/fileNames";
import { NOTES_LANGUAGE, TRACE_LANGUAGE } from "../../shared/quoteProtocol";

export const BUILTIN_ANNOTATION_GLOBS = ANNOTATION_FILE_GLOBS;

/** The language of sourcecheck.config.json (package.json): not JSON, so VS Code's JSON support leaves it to us. */
export const CONFIG_LANGUAGE = "sourcecheck-config";

function section(scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration("sourcecheck", scope);
}

/** The built-in annotation file globs plus those of `sourcecheck.annotationFiles`. */
export function annotationFileGlobs(): string[] {
    const extra = section().get<unknown>("annotationFiles");
    const globs = Array.isArray(extra) ? extra.filter((g): g is string => typeof g === "string" && g.length > 0) : [];
    return [...new Set([...BUILTIN_ANNOTATION_GLOBS, ...globs])];
}

export function isAnnotationDocument(document: vscode.TextDocument): boolean {
    if (document.languageId === "sourcecheck") return true;
    if (document.uri.scheme !== "file") return false;
    return annotationFileGlobs().some((pattern) => vscode.languages.match({ scheme: "file", pattern }, document) > 0);
}

/** `sourcecheck.enable`: the whole extension, per workspace. */
export function extensionEnabled(): boolean {
    return section().get<boolean>("enable", true);
}

export function decorationsEnabled(): boolean {
    return section().get<boolean>("decorations.enabled", true);
}

/** Flips `sourcecheck.decorations.enabled` where it is effectively set, so the flip is not shadowed. */
export async function toggleDecorationsSetting(): Promise<boolean> {
    const config = section();
    const next = !decorationsEnabled();
    const inspected = config.inspect<boolean>("decorations.enabled");
    const target =
        inspected?.workspaceFolderValue !== undefined
            ? vscode.ConfigurationTarget.WorkspaceFolder
            : inspected?.workspaceValue !== undefined
              ? vscode.ConfigurationTarget.Workspace
              : vscode.ConfigurationTarget.Global;
    await config.update("decorations.enabled", next, target);
    return next;
}

/**
 * The documents the server's language features serve beside annotation files: traces and notes by
 * their language, Markdown reports by name (`*.report.md` and the `sourcecheck.reportFiles` globs),
 * so that other Markdown documents keep text sync only.
 */
export function quoteDocumentSelector(): DocumentSelector {
    const reports = [...new Set(["**/*.report.md", ...quoteGlobs("reportFiles")])];
    return [
        { language: TRACE_LANGUAGE },
        { language: NOTES_LANGUAGE },
        ...reports.map((pattern) => ({ scheme: "file", language: "markdown", pattern })),
    ];
}

/** The extra globs of a quote-file setting. */
export function quoteGlobs(setting: "traceFiles" | "notesFiles" | "reportFiles"): string[] {
    const value = vscode.workspace.getConfiguration("sourcecheck").get<unknown>(setting);
    return Array.isArray(value) ? value.filter((g): g is string => typeof g === "string" && g.length > 0) : [];
}
