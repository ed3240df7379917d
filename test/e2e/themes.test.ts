import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { cleanSlate, prepare } from "./demo";
import { screenshot, waitFor, wsUri } from "./harness";

interface Applied {
    claimVerdicts: Record<"supported" | "contested" | "refuted" | "broken", unknown[]>;
    brokenLabels: string[];
}

/** The three theme kinds the verdict colours are measured against (docs/verdicts.md, "Colours"). */
const THEMES: [string, vscode.ColorThemeKind, string][] = [
    ["Default Light Modern", vscode.ColorThemeKind.Light, "light"],
    ["Default Dark Modern", vscode.ColorThemeKind.Dark, "dark"],
    ["Default High Contrast", vscode.ColorThemeKind.HighContrast, "high-contrast"],
];

describe("verdicts in light, dark and high-contrast themes", () => {
    before(prepare);
    after(async () => {
        await vscode.workspace
            .getConfiguration("workbench")
            .update("colorTheme", undefined, vscode.ConfigurationTarget.Global);
        await cleanSlate();
    });

    it("draws every verdict of the demo's answer in each theme, and shows the SourceCheck container", async () => {
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        await vscode.window.showTextDocument(answer);
        await vscode.commands.executeCommand("workbench.view.extension.sourcecheck");
        for (const [theme, kind, name] of THEMES) {
            await vscode.workspace
                .getConfiguration("workbench")
                .update("colorTheme", theme, vscode.ConfigurationTarget.Global);
            await waitFor(
                `the ${theme} theme`,
                () => vscode.window.activeColorTheme.kind,
                (k) => k === kind,
            );
            const applied = await waitFor(
                "verdict decorations on answer.md",
                () =>
                    vscode.commands.executeCommand<Applied>("sourcecheck._decorationsForEditor", answer.uri.toString()),
                (a) => a !== undefined && a.claimVerdicts.supported.length > 0 && a.claimVerdicts.broken.length > 0,
            );
            assert.ok(applied.claimVerdicts.refuted.length > 0, "the demo has a refuted claim");
            await screenshot(`verdicts-${name}`, 1500);
        }
    });
});
