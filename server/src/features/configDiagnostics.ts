/**
 * Diagnostics on broken sourcecheck.config.json files (docs/config.md): a broken configuration is
 * shown on its own offending token, never silently ignored. Pushed, since configuration files are
 * plain JSON files the client does not pull diagnostics for.
 */
import { DiagnosticSeverity, type PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { ConfiguredWorkspace } from "./featureWorkspace";
import { lspPositionOfPeoples } from "./positions";

/** Publish the problems of the configuration files read so far; clear those fixed since `shown`. */
export function publishConfigProblems(
    send: (params: PublishDiagnosticsParams) => void,
    workspace: ConfiguredWorkspace,
    shown: Set<string>,
): void {
    const broken = new Set<string>();
    for (const load of workspace.configs.loaded()) {
        if (load.ok) continue;
        const uri = workspace.uris.pathToUri(load.problem.file);
        broken.add(uri);
        // Every problem of the file, not only the first: one pass of fixes, not one per save.
        const diagnostics = load.problems.map((problem) => {
            const start = lspPositionOfPeoples(problem);
            const end = { line: start.line, character: start.character + Math.max(1, problem.length) };
            return {
                range: { start, end },
                severity: DiagnosticSeverity.Error,
                source: "sourcecheck",
                code: "config",
                message: `${problem.message} (the annotation files below this folder still use it as their document root)`,
            };
        });
        send({ uri, diagnostics });
    }
    for (const uri of shown) if (!broken.has(uri)) send({ uri, diagnostics: [] });
    shown.clear();
    for (const uri of broken) shown.add(uri);
}
