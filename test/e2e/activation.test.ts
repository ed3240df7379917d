import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { activateExtension, extensionId, workspaceRoot, wsUri } from "./harness";

describe("activation", () => {
    it("runs inside a real VS Code extension host with the demo workspace open", () => {
        assert.match(vscode.version, /^\d+\.\d+\.\d+/);
        const root = workspaceRoot();
        assert.ok(root.fsPath.length > 0);
    });

    it("loads the extension under development and activates it on an annotation file", async () => {
        const doc = await vscode.workspace.openTextDocument(wsUri("answer.sourcecheck.json"));
        await vscode.window.showTextDocument(doc);
        const ext = await activateExtension();
        assert.equal(ext.id.toLowerCase(), extensionId().toLowerCase());
        assert.equal(ext.isActive, true, `${ext.id} did not activate`);
    });
});
