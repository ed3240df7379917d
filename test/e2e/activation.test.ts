import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { extensionId, repoRoot, waitFor, workspaceRoot, wsUri } from "./harness";

describe("activation", () => {
    it("runs inside a real VS Code that satisfies engines.vscode, with the demo workspace open", () => {
        const engine = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).engines
            .vscode as string;
        const [want, have] = [engine.replace(/^\^/, ""), vscode.version].map((v) => v.split(".").map(Number));
        assert.ok(
            have[0] === want[0] && (have[1] > want[1] || (have[1] === want[1] && have[2] >= want[2])),
            `VS Code ${vscode.version} does not satisfy engines.vscode ${engine}`,
        );
        const root = workspaceRoot();
        for (const f of ["answer.md", "answer.sourcecheck.json", "sources/release-notes.md"]) {
            assert.ok(fs.existsSync(path.join(root.fsPath, f)), `the workspace lacks the demo's ${f}`);
        }
    });

    it("activates by itself (activation events) and gives *.sourcecheck.json its language", async () => {
        const id = extensionId();
        const ext = vscode.extensions.getExtension(id);
        assert.ok(ext, `extension ${id} is not loaded in this extension host`);
        const doc = await vscode.workspace.openTextDocument(wsUri("answer.sourcecheck.json"));
        await vscode.window.showTextDocument(doc);
        assert.equal(doc.languageId, "sourcecheck");
        // No explicit activate(): the manifest's activation events must do it.
        await waitFor(
            `${id} to activate`,
            () => ext.isActive,
            (active) => active,
        );
        // isActive is also true after a failed activation; activate() then rejects with its error.
        await ext.activate();
    });
});
