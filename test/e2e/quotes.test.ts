import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { cleanSlate, codeOf, hoverText, prepare, showRange, waitForDiagnostics } from "./demo";
import { repoRoot, waitFor, wsUri } from "./harness";

const FIXTURES = path.join(repoRoot, "test/fixtures/tracecite/fixtures");

/** Copies a TraceCite fixture into the workspace under a new name and opens it. */
async function openFixture(fixture: string, name: string): Promise<vscode.TextDocument> {
    const uri = wsUri(name);
    await vscode.workspace.fs.writeFile(uri, fs.readFileSync(path.join(FIXTURES, fixture)));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    return document;
}

/** The range of a JSON string token on a line, found independently of the server. */
function tokenOn(document: vscode.TextDocument, line: number, token: string): vscode.Range {
    const text = document.lineAt(line).text;
    const at = text.indexOf(token);
    assert.ok(at !== -1 && text.indexOf(token, at + 1) === -1, `${token} once on line ${line + 1}`);
    return new vscode.Range(line, at, line, at + token.length);
}

describe("quotes", () => {
    const written: string[] = [];
    before(prepare);
    after(async () => {
        await vscode.workspace
            .getConfiguration("sourcecheck")
            .update("traceFiles", undefined, vscode.ConfigurationTarget.Workspace);
        await cleanSlate();
        for (const name of written) await vscode.workspace.fs.delete(wsUri(name)).then(undefined, () => undefined);
    });

    it("a trace named *.trace.jsonl gets its language and TraceCite's diagnostic on the cited id", async () => {
        written.push("unknown-source.trace.jsonl");
        const document = await openFixture("unknown-source.jsonl", "unknown-source.trace.jsonl");
        assert.equal(document.languageId, "tracecite-trace");
        const diagnostics = await waitForDiagnostics(document.uri, (ds) => ds.length > 0, "the trace's diagnostics");
        assert.deepEqual(
            diagnostics.map((d) => `${codeOf(d)}@${showRange(d.range)}`),
            [`UNKNOWN_SOURCE@${showRange(tokenOn(document, 2, '"doc-404"'))}`],
        );
    });

    it("a glob in sourcecheck.traceFiles makes a .jsonl a trace; a false quote is flagged on the quote and its hover says so", async () => {
        await vscode.workspace
            .getConfiguration("sourcecheck")
            .update("traceFiles", ["**/*.jsonl"], vscode.ConfigurationTarget.Workspace);
        written.push("evidence-false-quote.jsonl");
        const document = await openFixture("evidence-false-quote.jsonl", "evidence-false-quote.jsonl");
        await waitFor(
            "the trace language",
            () => document.languageId,
            (id) => id === "tracecite-trace",
        );
        const quote = tokenOn(document, 2, '"value=99"');
        const diagnostics = await waitForDiagnostics(
            document.uri,
            (ds) => ds.some((d) => codeOf(d) === "QUOTE_NOT_IN_SOURCE"),
            "QUOTE_NOT_IN_SOURCE",
        );
        assert.deepEqual(
            diagnostics.map((d) => `${codeOf(d)}@${showRange(d.range)}`),
            [`QUOTE_NOT_IN_SOURCE@${showRange(quote)}`],
        );
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
            "vscode.executeHoverProvider",
            document.uri,
            quote.start.translate(0, 2),
        );
        assert.match(hoverText(hovers), /Not found verbatim in the captured content of source `?s1`?/);
    });

    it("hover shows where a quote was found; Convert to SourceCheck refs opens a file that checks clean", async () => {
        written.push("codex-two-run-after.trace.jsonl", "codex-two-run-after.sourcecheck.json");
        const document = await openFixture("codex-two-run-after.jsonl", "codex-two-run-after.trace.jsonl");
        const quote = tokenOn(document, 2, '"The archive release date is 2026-10-04."');
        const hovers = await waitFor(
            "a hover on the quote",
            () =>
                vscode.commands.executeCommand<vscode.Hover[]>(
                    "vscode.executeHoverProvider",
                    document.uri,
                    quote.start.translate(0, 5),
                ),
            (hs) => hoverText(hs ?? []).includes("Found verbatim"),
        );
        assert.match(
            hoverText(hovers),
            /source `?source-1`? \(file:fixtures\/codex-live-run-source\.txt\): line 1, column 1/,
        );

        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
            "vscode.executeCodeActionProvider",
            document.uri,
            quote,
            "source",
        );
        const convert = actions.find((a) => a.title === "Convert to SourceCheck refs");
        assert.ok(convert?.command, `the convert action among ${actions.map((a) => a.title).join(", ")}`);
        await vscode.commands.executeCommand(convert.command.command, ...(convert.command.arguments ?? []));
        const target = wsUri("codex-two-run-after.sourcecheck.json");
        await waitFor(
            "the converted file in the active editor",
            () => vscode.window.activeTextEditor?.document.uri.toString(),
            (uri) => uri === target.toString(),
        );
        const converted = JSON.parse(vscode.window.activeTextEditor!.document.getText());
        assert.equal(converted.annotations.length, 1);
        assert.equal(converted.annotations[0].sources[0].path, "file:fixtures/codex-live-run-source.txt");
        // The SourceCheck server resolves the new file's source ref to exactly the quote, with no diagnostic.
        const convertedDoc = vscode.window.activeTextEditor!.document;
        const sourcePath = convertedDoc.getText().lastIndexOf('"path": "file:fixtures/codex-live-run-source.txt"');
        const resolved = await waitFor(
            "a hover with the resolved source text",
            () =>
                vscode.commands.executeCommand<vscode.Hover[]>(
                    "vscode.executeHoverProvider",
                    target,
                    convertedDoc.positionAt(sourcePath + 12),
                ),
            (hs) => hoverText(hs ?? []).includes("The archive release date is 2026-10-04."),
        );
        assert.ok(resolved.length > 0);
        assert.deepEqual(
            vscode.languages.getDiagnostics(target).filter((d) => d.source === "sourcecheck"),
            [],
        );
    });
});
