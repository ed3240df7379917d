import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { cleanSlate, prepare, sourcecheckDiagnostics } from "./demo";
import { waitFor, wsUri } from "./harness";

// "SourceCheck: Import Citations from a Model Response…" (docs/import.md) with the response on the real
// clipboard: the language server imports it (the agent tool `import`), the answer and its annotation
// file land on disk, the answer opens with its claim marks and the annotation file has no problems.
const FOLDER = "import-e2e";
const DOC = `${FOLDER}/orbit-support.md`;
const ANSWER = `${FOLDER}/answer.md`;
const ANNOTATIONS = `${FOLDER}/answer.sourcecheck.json`;
const DOC_TEXT = "# Support\n\nRefunds take 5 business days.\nShipping is free over $50.\n";
const ANSWER_TEXT = "Refunds take five business days. Shipping costs nothing over $50.";
/** Cohere's v1 chat response, as its HTTP API sends it. */
const RESPONSE = {
    response_id: "r-e2e",
    generation_id: "g-e2e",
    text: ANSWER_TEXT,
    citations: [
        { start: 0, end: 32, text: ANSWER_TEXT.slice(0, 32), document_ids: ["doc_0"] },
        { start: 33, end: 65, text: ANSWER_TEXT.slice(33, 65), document_ids: ["doc_1"] },
    ],
    documents: [
        { id: "doc_0", title: "orbit-support.md", snippet: "Refunds take 5 business days." },
        { id: "doc_1", title: "orbit-support.md", snippet: "Shipping is free over $50." },
    ],
};

type Result =
    | { ok: true; answer: string; annotationFile: string; converted: number; notConverted: unknown[] }
    | { ok: false; message: string; code?: string };
interface PlainRange {
    startLine: number;
    startCharacter: number;
    endLine: number;
    endCharacter: number;
}
type Applied = Record<"claim" | "supports" | "refutes", PlainRange[]>;

const read = async (path: string) => Buffer.from(await vscode.workspace.fs.readFile(wsUri(path))).toString("utf8");

describe("import citations from a model response", () => {
    before(async () => {
        await prepare();
        await vscode.workspace.fs.writeFile(wsUri(DOC), Buffer.from(DOC_TEXT));
        // The server finds cited documents among the files it knows: wait until it has seen the new one
        // (the language model tool's dry run, which writes nothing).
        await waitFor(
            "the language server to know the cited document",
            async () => {
                const input = { response: JSON.stringify(RESPONSE), answer: ANSWER };
                const result = await vscode.lm.invokeTool("sourcecheck_import", {
                    input,
                    toolInvocationToken: undefined,
                });
                return result.content.map((part) => (part as { value?: string }).value ?? "").join("");
            },
            (text) => text.includes("2 of 2 cohere citations imported"),
            20_000,
        );
    });
    afterEach(cleanSlate);
    after(async () => {
        await vscode.workspace.fs.delete(wsUri(FOLDER), { recursive: true });
    });

    it("imports the clipboard's response: files on disk, the answer open with its marks, no problems", async () => {
        await vscode.env.clipboard.writeText(JSON.stringify(RESPONSE, null, 2));
        const result = await vscode.commands.executeCommand<Result>("sourcecheck.importCitations", {
            from: "clipboard",
            answer: ANSWER,
        });
        assert.ok(result?.ok, JSON.stringify(result));
        assert.equal(result.annotationFile, ANNOTATIONS);
        assert.equal(result.converted, 2, JSON.stringify(result));
        assert.deepEqual(result.notConverted, []);

        assert.equal(await read(ANSWER), ANSWER_TEXT);
        const file = JSON.parse(await read(ANNOTATIONS)) as {
            annotations: { claim: { path: string }; sources: { path: string; start: { line: number } }[] }[];
        };
        assert.deepEqual(
            file.annotations.map((a) => [a.claim.path, a.sources[0].path, a.sources[0].start.line]),
            [
                [ANSWER, DOC, 3],
                [ANSWER, DOC, 4],
            ],
        );

        const answer = wsUri(ANSWER);
        assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), answer.toString());
        const marks = await waitFor(
            "claim marks on the imported answer",
            () => vscode.commands.executeCommand<Applied>("sourcecheck._decorationsForEditor", answer.toString()),
            (a) => (a?.claim.length ?? 0) === 2,
            20_000,
        );
        assert.deepEqual(
            marks.claim.map((r) => [r.startLine, r.startCharacter, r.endCharacter]),
            [
                [0, 0, 32],
                [0, 33, 65],
            ],
        );
        // The annotation file is checked as any other: every ref resolves, so no problem is listed.
        const annotations = await vscode.workspace.openTextDocument(wsUri(ANNOTATIONS));
        await vscode.window.showTextDocument(annotations);
        await waitFor(
            "the imported file's summary: 2/2 valid",
            () =>
                vscode.commands.executeCommand<{ kind: string; uri?: string; text?: string }>(
                    "sourcecheck._languageStatus",
                ),
            (s) => s?.uri === annotations.uri.toString() && (s.text ?? "").includes("2/2 valid"),
            20_000,
        );
        assert.deepEqual(sourcecheckDiagnostics(annotations.uri), []);
    });

    it("bad clipboard text is refused with its stable code, and nothing is written", async () => {
        await vscode.env.clipboard.writeText("{ this is not a response");
        const result = await vscode.commands.executeCommand<Result>("sourcecheck.importCitations", {
            from: "clipboard",
            answer: `${FOLDER}/bad.md`,
        });
        assert.ok(result && !result.ok, JSON.stringify(result));
        assert.equal(result.code, "invalid-response");
        assert.match(result.message, /invalid-response/);
        const exists = (path: string) =>
            vscode.workspace.fs.stat(wsUri(path)).then(
                () => true,
                () => false,
            );
        assert.equal(await exists(`${FOLDER}/bad.md`), false);
        assert.equal(await exists(`${FOLDER}/bad.sourcecheck.json`), false);
    });
});
