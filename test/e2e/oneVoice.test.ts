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
import { sleep, waitFor, wsUri } from "./harness";

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

describe("one voice on sourcecheck.config.json", () => {
    before(prepare);
    after(cleanSlate);

    it("a configuration with two errors: both reported, by SourceCheck alone; completion still offers its settings", async () => {
        const uri = wsUri("sourcecheck.config.json");
        const original = fs.readFileSync(uri.fsPath, "utf8");
        // Two errors: a size below the minimum, and exclude not an array.
        const broken = '{\n  "maxDocumentSize": 0,\n  "exclude": "fixtures/**"\n}\n';
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.window.showTextDocument(doc);
        try {
            const edit = new vscode.WorkspaceEdit();
            edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), broken);
            assert.ok(await vscode.workspace.applyEdit(edit));
            await doc.save();
            const ours = await waitFor(
                "SourceCheck's two configuration problems",
                () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === "sourcecheck"),
                (ds) => ds.length >= 2,
                20_000,
            );
            const lines = ours.map((d) => d.range.start.line).sort();
            assert.deepEqual(lines, [1, 2], JSON.stringify(ours));
            // VS Code's JSON support would answer within moments of the save: give it time, then none may be there.
            await sleep(3000);
            const all = vscode.languages.getDiagnostics(uri);
            assert.deepEqual(
                all.filter((d) => d.source !== "sourcecheck").map((d) => `${d.source}: ${d.message}`),
                [],
            );
            assert.equal(doc.languageId, "sourcecheck-config");
            const list = await vscode.commands.executeCommand<vscode.CompletionList>(
                "vscode.executeCompletionItemProvider",
                uri,
                new vscode.Position(1, 2),
            );
            const labels = list.items.map((i) => (typeof i.label === "string" ? i.label : i.label.label));
            assert.ok(
                labels.some((l) => l.includes("annotationFiles")),
                `completion offers the schema's settings: ${labels.join(", ")}`,
            );
        } finally {
            const edit = new vscode.WorkspaceEdit();
            edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), original);
            await vscode.workspace.applyEdit(edit);
            await doc.save();
        }
    });
});
