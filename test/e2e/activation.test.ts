import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { activateExtension, extensionId, repoRoot, workspaceRoot, wsUri } from "./harness";

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

    it("loads the extension under development and activates it on an annotation file", async () => {
        const doc = await vscode.workspace.openTextDocument(wsUri("answer.sourcecheck.json"));
        await vscode.window.showTextDocument(doc);
        const ext = await activateExtension();
        assert.equal(ext.id.toLowerCase(), extensionId().toLowerCase());
        assert.equal(ext.isActive, true, `${ext.id} did not activate`);
    });
});
