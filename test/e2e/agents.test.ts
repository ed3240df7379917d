import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { cleanSlate, openAnnotations, prepare, type Ref, resolveRef, valueAt } from "./demo";
import { waitFor, wsUri } from "./harness";

// VS Code's agents call SourceCheck's language model tools; these invoke them as an agent would
// (vscode.lm.invokeTool), and check the answers against the demo files with the suite's own resolver.

const TOOLS = [
    "sourcecheck_index",
    "sourcecheck_cite",
    "sourcecheck_annotate",
    "sourcecheck_check",
    "sourcecheck_repair",
    "sourcecheck_evidence",
    "sourcecheck_import",
];

async function invoke(name: string, input: object): Promise<string> {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
    return result.content.map((part) => (part as { value?: string }).value ?? "").join("");
}

async function invokeError(name: string, input: object): Promise<string> {
    try {
        await invoke(name, input);
    } catch (error) {
        return error instanceof Error ? error.message : String(error);
    }
    assert.fail(`${name} ${JSON.stringify(input)} should have failed`);
}

describe("agents: language model tools", () => {
    before(prepare);
    afterEach(cleanSlate);

    it("VS Code's agents see every tool, with its input schema", async () => {
        const tools = await waitFor(
            "the SourceCheck tools in vscode.lm.tools",
            () => vscode.lm.tools.filter((tool) => TOOLS.includes(tool.name)),
            (found) => found.length === TOOLS.length,
        );
        for (const tool of tools) {
            assert.equal((tool.inputSchema as { type?: string } | undefined)?.type, "object", tool.name);
            assert.ok(tool.description.length > 80, tool.name);
        }
    });

    it("cite returns the ref that resolves to exactly the quote", async () => {
        const quote = "adds offline sync for mobile clients.\nEarly adopters";
        const answer = JSON.parse(await invoke("sourcecheck_cite", { path: "answer.md", quote })) as {
            ref: Ref;
            text: string;
        };
        assert.equal(answer.text, quote);
        const resolved = await resolveRef(answer.ref);
        assert.ok(resolved, `${JSON.stringify(answer.ref)} does not resolve`);
        assert.equal(resolved.text, quote);
    });

    it("cite and index see unsaved edits, as the language server does", async () => {
        const doc = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        await vscode.window.showTextDocument(doc);
        const phrase = "Zebra-striped unsaved sentence for the agent tools.";
        const edit = new vscode.WorkspaceEdit();
        edit.insert(doc.uri, new vscode.Position(1, 0), `${phrase}\n`);
        assert.ok(await vscode.workspace.applyEdit(edit));
        assert.ok(doc.isDirty);
        const cited = await waitFor("cite to find the unsaved phrase", async () => {
            try {
                return JSON.parse(await invoke("sourcecheck_cite", { path: "answer.md", quote: phrase })) as {
                    ref: Ref;
                };
            } catch {
                return undefined;
            }
        });
        assert.ok(cited);
        assert.equal(cited.ref.start.line, 2);
        assert.equal(cited.ref.end.line, 2);
        const index = await invoke("sourcecheck_index", { path: "answer.md", startLine: 2, endLine: 2 });
        assert.ok(index.endsWith(`2 | ${phrase}`), index);
    });

    it("index numbers the document's lines as the CLI does", async () => {
        const doc = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        const lines = doc.getText().replace(/\r\n?/g, "\n").split("\n");
        const width = String(lines.length).length;
        const expected = lines.map((text, i) => `${String(i + 1).padStart(width)} | ${text}`).join("\n");
        assert.equal(await invoke("sourcecheck_index", { path: "answer.md" }), expected);
    });

    it("check reports the demo's annotations as the suite's own resolver judges them", async () => {
        const doc = await openAnnotations();
        const annotations = valueAt<{ claim: Ref; sources: Ref[] }[]>(doc, ["annotations"]);
        let valid = 0;
        for (const annotation of annotations) {
            const resolved = await Promise.all([annotation.claim, ...annotation.sources].map(resolveRef));
            if (resolved.every((r) => r !== undefined)) valid++;
        }
        const report = JSON.parse(
            await invoke("sourcecheck_check", { file: "answer.sourcecheck.json", detail: "full" }),
        ) as {
            exitCode: number;
            validCount: number;
            invalidCount: number;
        };
        assert.equal(report.validCount, valid);
        assert.equal(report.invalidCount, annotations.length - valid);
        assert.equal(report.exitCode, valid === annotations.length ? 0 : 1);
    });

    it("repair proposes for the demo's broken refs without writing, each proposal resolving to its text", async () => {
        const doc = await openAnnotations();
        const before = doc.getText();
        const answer = JSON.parse(
            await invoke("sourcecheck_repair", { file: "answer.sourcecheck.json", detail: "full" }),
        ) as {
            repairs: { after: Ref; text: string }[];
            written: number;
        };
        assert.equal(answer.written, 0);
        assert.ok(answer.repairs.length > 0, "the demo has broken refs to repair");
        for (const repair of answer.repairs) assert.equal((await resolveRef(repair.after))?.text, repair.text);
        assert.equal(doc.getText(), before);
    });

    it("evidence finds the benchmark passage, each shown where its document holds it", async () => {
        // The tool answers in the text a model reads (docs/agents.md, "Evidence as text"): each passage
        // under a line naming its place, "path:first-last"; the passage must be those lines' text.
        const text = await invoke("sourcecheck_evidence", { query: "cold start latency benchmark", corpus: "sources" });
        const header = /^passage (\d+), (a hit|below the floor \(judge it\)): (\S+):(\d+)-(\d+) \(\d+% of the query\)$/;
        const lines = text.split("\n");
        const hits = lines.flatMap((line, at) => {
            const match = header.exec(line);
            return match && match[2] === "a hit"
                ? [{ at, path: match[3], first: Number(match[4]), last: Number(match[5]) }]
                : [];
        });
        assert.ok(hits.length > 0, text);
        for (const hit of hits) {
            assert.ok(hit.path.startsWith("sources/"), hit.path);
            const doc = await vscode.workspace.openTextDocument(wsUri(hit.path));
            const held = doc
                .getText()
                .replace(/\r\n?/g, "\n")
                .split("\n")
                .slice(hit.first - 1, hit.last)
                .join("\n");
            const shown = lines[hit.at + 1];
            assert.ok(
                shown.trim().length > 0 && held.includes(shown.trim()),
                `${hit.path}:${hit.first}-${hit.last} should hold ${JSON.stringify(shown)}`,
            );
        }
    });

    it("a bad call fails with its code for the model, and the tools keep answering", async () => {
        assert.match(
            await invokeError("sourcecheck_cite", { path: "../outside.md", quote: "x" }),
            /^path-outside-root: /,
        );
        assert.match(
            await invokeError("sourcecheck_cite", { path: "answer.md", quote: "release" }),
            /^quote-ambiguous: /,
        );
        assert.match(await invokeError("sourcecheck_index", { path: 42 }), /^invalid-arguments: /);
        const again = JSON.parse(
            await invoke("sourcecheck_cite", { path: "answer.md", quote: "under ten minutes" }),
        ) as { text: string };
        assert.equal(again.text, "under ten minutes");
    });
});
