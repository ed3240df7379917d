import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { cleanSlate, prepare, type Ref, resolveRef } from "./demo";
import { extensionId } from "./harness";

type Cited = { ok: true; ref: Ref; text: string; path: string } | { ok: false; message: string; code?: string };

const cite = (args: unknown) => Promise.resolve(vscode.commands.executeCommand<Cited>("sourcecheck.citeQuote", args));

describe("Cite a Quote…", () => {
    before(prepare);
    after(cleanSlate);

    it("is in the palette as SourceCheck: Cite a Quote…", () => {
        const commands = vscode.extensions.getExtension(extensionId())?.packageJSON.contributes.commands as {
            command: string;
            title: string;
            category: string;
        }[];
        const entry = commands.find((c) => c.command === "sourcecheck.citeQuote");
        assert.deepEqual([entry?.category, entry?.title], ["SourceCheck", "Cite a Quote…"]);
    });

    it("finds the words in the document, copies their ref and shows the span selected; words not there get cite's code", async () => {
        const quote = "queue changes while offline";
        const path = "sources/release-notes.md";
        const result = await cite({ quote, path });
        assert.ok(result.ok, result.ok ? "" : result.message);
        // The oracle resolves the ref independently of the server.
        const resolved = await resolveRef(result.ref);
        assert.equal(resolved?.text, quote);
        assert.equal(result.text, quote);
        const editor = vscode.window.activeTextEditor;
        assert.ok(editor, "an editor shows the cited span");
        assert.ok(editor.document.uri.path.endsWith(`/${path}`), editor.document.uri.toString());
        assert.equal(editor.document.getText(editor.selection), quote);
        assert.deepEqual(JSON.parse(await vscode.env.clipboard.readText()), result.ref);

        const missing = await cite({ quote: "words that are nowhere in it", path });
        assert.ok(!missing.ok);
        assert.match(missing.message, /^[a-z-]+: /, "the message starts with cite's stable code");
    });
});
