/**
 * The window in Simplified Chinese (SOURCECHECK_E2E_LOCALE=zh-cn, scripts/e2e.mjs): what a person
 * reads comes from package.nls.zh-cn.json and l10n/bundle.l10n.zh-cn.json, the language server's
 * diagnostics, hovers and code action titles included. Expected texts are read from those files, with the arguments taken
 * from the demo's files, and checked to differ from the English ones, so a missing translation fails.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { annotationsUri, codeOf, hoverText, openAnnotations, tokenRange, valueAt, waitForDiagnostics } from "../demo";
import { activateExtension, repoRoot, screenshot, sleep, waitFor, wsUri } from "../harness";

const readJson = (file: string) =>
    JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8")) as Record<string, string>;

/** The translation of a key, asserted to be one (not the English text). */
function translated(english: Record<string, string>, chinese: Record<string, string>, key: string): string {
    const text = chinese[key];
    assert.ok(text, `no zh-cn translation of ${key}`);
    assert.notEqual(text, english[key] ?? key, `${key} is not translated`);
    return text;
}

/** A template of the server's (named `{arguments}`) filled in, as @vscode/l10n does. */
const fill = (template: string, args: Record<string, string | number>) =>
    template.replace(/\{(\w+)\}/g, (m, name: string) => String(args[name] ?? m));

describe("zh-cn", () => {
    const nls = readJson("package.nls.json");
    const nlsZh = readJson("package.nls.zh-cn.json");
    const bundle = readJson("l10n/bundle.l10n.json");
    const bundleZh = readJson("l10n/bundle.l10n.zh-cn.json");

    before(async () => {
        await activateExtension();
    });

    it("the window's display language is zh-cn", () => {
        assert.equal(vscode.env.language, "zh-cn");
    });

    it("commands, the view and the settings carry the zh-cn titles of package.nls.zh-cn.json", async () => {
        const ext = await activateExtension();
        const contributes = ext.packageJSON.contributes;
        // A translated command title is `{ value, original }` (the palette also matches the English words).
        const title = (id: string) => {
            const t = (contributes.commands as { command: string; title: string | { value: string } }[]).find(
                (c) => c.command === id,
            )?.title;
            return typeof t === "object" ? t.value : t;
        };
        assert.equal(
            title("sourcecheck.citeSelectionAsClaim"),
            translated(nls, nlsZh, "command.citeSelectionAsClaim.title"),
        );
        assert.equal(title("sourcecheck.citeQuote"), translated(nls, nlsZh, "command.citeQuote.title"));
        assert.equal(contributes.views.sourcecheck[0].name, translated(nls, nlsZh, "view.annotations.name"));
        assert.equal(
            contributes.configuration.properties["sourcecheck.updateRefsOnEdit"].enumDescriptions[0],
            translated(nls, nlsZh, "config.updateRefsOnEdit.enum.prompt"),
        );
    });

    it("a command's message comes from the zh-cn bundle, and the palette and the notification show Chinese", async () => {
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        await vscode.window.showTextDocument(answer);
        const result = await vscode.commands.executeCommand<{ ok: boolean; message?: string }>(
            "sourcecheck.citeSelectionAsClaim",
            {
                uri: answer.uri.toString(),
                range: { start: { line: 2, character: 5 }, end: { line: 2, character: 5 } },
            },
        );
        const empty = translated(bundle, bundleZh, "Select the text to cite first: the selection is empty.");
        assert.equal(result?.ok, false);
        assert.equal(result?.message, empty);
        // What the person sees: the error notification and, in the command palette, the command's title.
        const notification = bundleZh["SourceCheck: {0}"].replace("{0}", empty);
        // The palette filtered by the translated title: it matches, so the command is listed first.
        const paletteTitle = `SourceCheck: ${translated(nls, nlsZh, "command.citeSelectionAsClaim.title")}`;
        await vscode.commands.executeCommand("workbench.action.quickOpen", `>${paletteTitle}`);
        await sleep(500);
        const shot = await screenshot("zh-cn-palette", 500, { waitForText: [notification, paletteTitle] });
        await vscode.commands.executeCommand("workbench.action.closeQuickOpen");
        await vscode.commands.executeCommand("notifications.clearAll");
        // Only the web route's driver can read the page (test-electron takes no screenshots).
        if (shot) assert.deepEqual(shot.missing, [], "texts the workbench did not draw");
    });

    it("the language server's diagnostics, hovers and code action titles are in Chinese, from the same bundle", async () => {
        const doc = await openAnnotations();
        // Annotation 8, source 2 of the demo cites line 9 of a file that has fewer (docs/codes.md).
        const source = ["annotations", 7, "sources", 1];
        const file = valueAt<string>(doc, [...source, "path"]);
        const line = valueAt<number>(doc, [...source, "start", "line"]);
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(wsUri(file)));
        const template = "start line {line} is out of range: {path} has {count} lines";
        const expected = fill(translated(bundle, bundleZh, template), {
            line,
            path: JSON.stringify(file),
            count: text.split(/\r\n|\r|\n/).length,
        });
        const range = tokenRange(doc, [...source, "start", "line"]);
        const diagnostics = await waitForDiagnostics(
            annotationsUri(),
            (ds) => ds.some((d) => codeOf(d) === "line-out-of-range" && d.range.isEqual(range)),
            "the demo's line-out-of-range diagnostic",
        );
        const outOfRange = diagnostics.find((d) => codeOf(d) === "line-out-of-range" && d.range.isEqual(range));
        assert.equal(outOfRange?.message, expected);
        // The hover on that ref: its title and "does not resolve" from the bundle, in Chinese.
        const title = `**${fill(translated(bundle, bundleZh, "Source {number}"), { number: 2 })}** · ${translated(bundle, bundleZh, "supports")}`;
        const broken = fill(translated(bundle, bundleZh, "{path} does not resolve"), { path: `\`${file}\`` });
        const hover = await waitFor(
            "a hover on the broken source",
            async () =>
                hoverText(
                    (await vscode.commands.executeCommand<vscode.Hover[]>(
                        "vscode.executeHoverProvider",
                        doc.uri,
                        range.start.translate(0, 1),
                    )) ?? [],
                ),
            (value) => value.includes(broken),
        );
        assert.ok(hover.includes(title), hover);
        assert.ok(hover.includes(broken), hover);
        // The code actions on that ref: "Remove annotation 8" said by the bundle's template.
        const remove = fill(translated(bundle, bundleZh, "Remove annotation {annotation}"), { annotation: 8 });
        const caret = new vscode.Range(range.start.translate(0, 1), range.start.translate(0, 1));
        const titles = await waitFor(
            "the code actions on the broken source",
            async () =>
                (
                    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
                        "vscode.executeCodeActionProvider",
                        doc.uri,
                        caret,
                    )) ?? []
                ).map((a) => a.title),
            (list) => list.includes(remove),
        );
        assert.ok(titles.includes(remove), titles.join("\n"));
    });
});
