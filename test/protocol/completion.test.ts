import * as assert from "node:assert/strict";
import type { CompletionItem, CompletionList } from "vscode-languageserver-protocol";
import { rangeOf, startClient, type TestClient } from "./harness";

describe("completion", () => {
    let client: TestClient;
    let uri: string;
    let text: string;
    before(async () => {
        client = await startClient({ pull: false });
        uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        text = client.text(uri);
    });
    after(async () => {
        await client.stop();
    });

    async function completeInside(needle: string, occurrence = 0): Promise<CompletionItem[]> {
        const range = rangeOf(text, needle, occurrence);
        const result = await client.request<CompletionItem[] | CompletionList>("textDocument/completion", {
            textDocument: { uri },
            position: { line: range.start.line, character: range.start.character + 1 },
        });
        return Array.isArray(result) ? result : result.items;
    }

    it("offers workspace files in path values, replacing the whole string", async () => {
        const items = await completeInside('"answer.md"');
        const labels = items.map((i) => i.label);
        for (const expected of [
            "answer.md",
            "sources/benchmark.txt",
            "sources/release-notes.md",
            "sources/survey-zh.md",
        ]) {
            assert.ok(labels.includes(expected), `${expected} in ${labels}`);
        }
        const item = items.find((i) => i.label === "sources/benchmark.txt");
        assert.deepEqual(item?.textEdit, { range: rangeOf(text, '"answer.md"'), newText: '"sources/benchmark.txt"' });
    });

    it("offers, for a start boundary, the shortest unique string at each word start of the line, with the span", async () => {
        const items = await completeInside('"37%"');
        // Line 3: "Orbit 2.4 improves cold-start latency by 37% over 2.3, according to the team's benchmark."
        assert.equal(items[0].label, "O");
        const at37 = items.find((i) => i.label === "37");
        assert.ok(at37, items.map((i) => i.label).join(" | "));
        assert.equal(at37.detail, '"37%" (answer.md:3:42-3:45)');
        assert.deepEqual(at37.textEdit, { range: rangeOf(text, '"37%"'), newText: '"37"' });
        const labels = items.map((i) => i.label);
        assert.ok(labels.includes("improves") || labels.includes("im"), labels.join(" | "));
        // Every offer is unique on its line and starts a word.
        const line = "Orbit 2.4 improves cold-start latency by 37% over 2.3, according to the team's benchmark.";
        for (const label of labels) {
            const at = line.indexOf(label);
            assert.equal(line.indexOf(label, at + 1), -1, `${label} is unique`);
            assert.ok(
                at === 0 || /[^\p{L}\p{N}]/u.test(line[at - 1]) || /[^\p{L}\p{N}]/u.test(line[at]),
                `${label} starts a word`,
            );
        }
    });

    it("offers, for an end boundary, the shortest unique string ending at each word end", async () => {
        const items = await completeInside('"37%"', 1);
        const percent = items.find((i) => i.label === "%");
        assert.equal(percent?.detail, '"37%" (answer.md:3:42-3:45)');
        // Ending after "37" ("7" is unique): with start "37%" that span would not hold both boundaries.
        const seven = items.find((i) => i.label === "7");
        assert.match(seven?.detail ?? "", /do not enclose a span/);
        assert.equal(items.at(-1)?.label, "k.", "the last word end of the line comes last");
    });

    it("inserts a whole JSON string where no value is typed yet", async () => {
        const typed = text.replace('"polarity": "supports", "confidence": 0.95', '"polarity": , "confidence": 0.95');
        const typedUri = await client.open("typing.sourcecheck.json", "sourcecheck", typed);
        const at = rangeOf(typed, '"polarity": ,').start;
        const cursor = { line: at.line, character: at.character + '"polarity": '.length };
        const items = await client.request<CompletionItem[]>("textDocument/completion", {
            textDocument: { uri: typedUri },
            position: cursor,
        });
        assert.deepEqual(
            items.map((i) => i.textEdit),
            [
                { range: { start: cursor, end: cursor }, newText: '"supports"' },
                { range: { start: cursor, end: cursor }, newText: '"refutes"' },
            ],
        );
        await client.close(typedUri);
    });

    it("offers polarity values", async () => {
        const items = await completeInside('"supports"');
        assert.deepEqual(
            items.map((i) => i.label),
            ["supports", "refutes"],
        );
        assert.deepEqual(items[1].textEdit, { range: rangeOf(text, '"supports"'), newText: '"refutes"' });
    });

    it("offers the documents of an embedded session in its path values", async () => {
        const session =
            '{ "documents": [ { "path": "a", "content": "x" }, { "path": "b", "content": "y" } ], "annotations": [ { "claim": { "path": "" } } ] }';
        const sessionUri = await client.open("s.sourcecheck.json", "sourcecheck", session);
        const at = rangeOf(session, '""').start;
        const result = await client.request<CompletionItem[]>("textDocument/completion", {
            textDocument: { uri: sessionUri },
            position: { line: at.line, character: at.character + 1 },
        });
        assert.deepEqual(
            result.map((i) => i.label),
            ["a", "b"],
        );
    });
});
