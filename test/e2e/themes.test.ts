import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { ViewSnapshot } from "../../client/src/sourceCheckView";
import { VERDICT_CODICONS, verdictColorId } from "../../shared/legend";
import { cleanSlate, prepare } from "./demo";
import { screenshot, waitFor, wsUri } from "./harness";

type Verdict = "supported" | "contested" | "refuted" | "broken";
interface Applied {
    claimVerdicts: Record<Verdict, { startLine: number }[]>;
    brokenLabels: string[];
    gutterIcons: Record<number, string>;
}
const WORST_FIRST: Verdict[] = ["broken", "refuted", "contested", "supported"];

/** The four theme kinds the verdict colours are measured against (docs/verdicts.md, "Colours"). */
const THEMES: [string, vscode.ColorThemeKind, string][] = [
    ["Default Light Modern", vscode.ColorThemeKind.Light, "light"],
    ["Default Dark Modern", vscode.ColorThemeKind.Dark, "dark"],
    ["Default High Contrast", vscode.ColorThemeKind.HighContrast, "high-contrast"],
    ["Default High Contrast Light", vscode.ColorThemeKind.HighContrastLight, "high-contrast-light"],
];

describe("verdicts in light, dark and high-contrast themes", () => {
    before(prepare);
    after(async () => {
        // Show Coverage toggles on the active answer: take the marks away again for the suites after.
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        await vscode.window.showTextDocument(answer);
        const marks = await vscode.commands.executeCommand<unknown[] | undefined>(
            "sourcecheck._coverageMarks",
            answer.uri.toString(),
        );
        if (marks !== undefined) await vscode.commands.executeCommand("sourcecheck.showCoverage");
        await vscode.workspace
            .getConfiguration("workbench")
            .update("colorTheme", undefined, vscode.ConfigurationTarget.Global);
        await cleanSlate();
    });

    it("draws every verdict of the demo's answer in each theme, and shows the SourceCheck container", async () => {
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        await vscode.window.showTextDocument(answer);
        await vscode.commands.executeCommand("workbench.view.extension.sourcecheck");
        // Coverage too (issue 34.5): the sentences no claim covers, outlined, in every theme.
        const coverage = await vscode.commands.executeCommand<{ ok: boolean; uncovered?: unknown[] }>(
            "sourcecheck.showCoverage",
            answer.uri,
        );
        assert.ok(coverage.ok && (coverage.uncovered?.length ?? 0) > 0, JSON.stringify(coverage));
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
            const marks = await vscode.commands.executeCommand<unknown[] | undefined>(
                "sourcecheck._coverageMarks",
                answer.uri.toString(),
            );
            assert.ok((marks?.length ?? 0) > 0, "the uncovered sentences are marked");
            await screenshot(`verdicts-${name}`, 1500);
        }
    });

    // Issue 34 item 10: one legend. The report's glyphs and colours are held to it in test/unit/legend.test.ts.
    it("the view and the gutter draw each verdict with the legend's shape and colour", async () => {
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        await vscode.window.showTextDocument(answer);
        const view = await waitFor(
            "the SourceCheck view",
            () => vscode.commands.executeCommand<ViewSnapshot>("sourcecheck._viewSnapshot"),
            (v) => (v?.files.flatMap((f) => f.annotations).length ?? 0) > 0,
        );
        const annotations = view.files.flatMap((f) => f.annotations);
        const seen = new Set<Verdict>();
        for (const a of annotations) {
            seen.add(a.verdict);
            assert.deepEqual(a.icon, { codicon: VERDICT_CODICONS[a.verdict], color: verdictColorId(a.verdict) });
        }
        // The demo has no contested annotation; the other three are all there.
        for (const verdict of ["broken", "refuted", "supported"] as Verdict[])
            assert.ok(seen.has(verdict), `the view shows a ${verdict} annotation`);
        const sourceIcons = annotations.flatMap((a) => a.sourceIcons.map((icon) => icon.codicon));
        assert.ok(sourceIcons.includes(VERDICT_CODICONS.refuted), "a refuting source carries refuted's shape");
        const applied = await vscode.commands.executeCommand<Applied>(
            "sourcecheck._decorationsForEditor",
            answer.uri.toString(),
        );
        const drawn = new Set<string>();
        for (const verdict of WORST_FIRST) {
            for (const claim of applied.claimVerdicts[verdict]) {
                const icon = applied.gutterIcons[claim.startLine];
                drawn.add(icon);
                // One icon per line: a worse verdict's claim starting on the same line wins.
                const allowed = WORST_FIRST.slice(0, WORST_FIRST.indexOf(verdict) + 1).map((v) => `verdict-${v}`);
                assert.ok(allowed.includes(icon), `${verdict} claim on line ${claim.startLine + 1}: ${icon}`);
            }
        }
        for (const verdict of ["broken", "refuted", "supported"] as Verdict[])
            assert.ok(drawn.has(`verdict-${verdict}`), `the gutter shows ${verdict}'s icon`);
    });
});
