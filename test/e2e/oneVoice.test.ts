/**
 * Each thing said once: a broken ref's problem is not repeated by its hover, and reading the
 * exclusion settings leaves no warning in the extension host's log (docs/editor-features.md,
 * "Every problem once").
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { cleanSlate, codeOf, hoverText, openAnnotations, prepare, waitForDiagnostics } from "./demo";
import { sleep, waitFor } from "./harness";

/** The extension host's own log: `remoteexthost.log` on a server, `exthost.log` on the desktop. */
async function extensionHostLog(): Promise<string> {
    const folder = await vscode.commands.executeCommand<string>("sourcecheck._logFolder");
    const dir = path.dirname(folder);
    const file = ["remoteexthost.log", "exthost.log"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
    assert.ok(file, `no extension host log in ${dir}: ${fs.readdirSync(dir).join(", ")}`);
    return fs.readFileSync(file, "utf8");
}

const RESOURCE_WARNING = "[sourcecheck.sourcecheck-vscode] Accessing a resource scoped configuration without";

describe("one voice", () => {
    before(prepare);
    after(cleanSlate);

    it("a broken boundary's message is said once where the cursor is: by the problem, not again by the hover", async () => {
        const doc = await openAnnotations();
        const notFound = (
            await waitForDiagnostics(
                doc.uri,
                (ds) => ds.some((d) => codeOf(d) === "boundary-not-found"),
                "a boundary-not-found diagnostic",
            )
        ).find((d) => codeOf(d) === "boundary-not-found");
        assert.ok(notFound);
        const position = notFound.range.start.translate(0, 1);
        // What the editor's hover at that position shows: the problems there, then every hover provider's text.
        const problems = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.range.contains(position));
        const hover = await waitFor(
            "the hover of the broken ref",
            async () =>
                hoverText(
                    (await vscode.commands.executeCommand<vscode.Hover[]>(
                        "vscode.executeHoverProvider",
                        doc.uri,
                        position,
                    )) ?? [],
                ),
            (text) => text.includes("does not resolve"),
        );
        const times = (text: string) => text.split(notFound.message).length - 1;
        const said = problems.reduce((n, d) => n + times(d.message), 0) + times(hover);
        assert.equal(said, 1, `the message "${notFound.message}" is shown ${said} times:\n${hover}`);
        assert.ok(hover.includes("boundary-not-found"), hover);
    });

    it("reading files.exclude and search.exclude, per workspace folder, leaves no warning in the extension host's log", async () => {
        // A change of an exclusion makes the server read them again (and the client notify it).
        const files = vscode.workspace.getConfiguration("files");
        const before = files.inspect<Record<string, boolean>>("exclude")?.workspaceValue;
        await files.update(
            "exclude",
            { ...(before ?? {}), "**/.e2e-scratch": true },
            vscode.ConfigurationTarget.Workspace,
        );
        try {
            await sleep(1500);
        } finally {
            await files.update("exclude", before, vscode.ConfigurationTarget.Workspace);
        }
        // The log is written asynchronously: give the warnings time to land before concluding none did.
        await sleep(2000);
        const log = await extensionHostLog();
        assert.ok(log.length > 0, "the extension host log is empty");
        const warnings = log.split("\n").filter((line) => line.includes(RESOURCE_WARNING));
        assert.deepEqual(warnings, []);
    });
});
