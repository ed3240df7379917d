import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CompletionItem, CompletionList } from "vscode-languageserver-protocol";
import { baseNameOf, isCitationFileName } from "../../shared/fileNames";
import { copyDemo, rangeOf, startClient, type TestClient } from "./harness";

describe("completion", () => {
    let client: TestClient;
    let uri: string;
    let text: string;
    before(async () => {
        const root = copyDemo();
        // Beside the demo's annotation file: its lock, an annotation file of each other kind of name, a plain JSON file.
        for (const name of ["answer.sourcecheck.lock.json", "other.annotations.json", "sources/Upper.SourceCheck.JSON"])
            fs.writeFileSync(path.join(root, name), name.endsWith(".lock.json") ? "{}" : '{ "annotations": [] }');
        fs.writeFileSync(path.join(root, "sources/data.json"), "{}");
        client = await startClient({ root, pull: false });
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

    it("never offers a lock or an annotation file as a path to cite", async () => {
        const labels = (await completeInside('"answer.md"')).map((i) => i.label);
        // The plain JSON file written beside them is offered: the scan saw them.
        assert.ok(labels.includes("sources/data.json"), `sources/data.json in ${labels}`);
        const citations = labels.filter((label) => isCitationFileName(baseNameOf(label)));
        assert.deepEqual(citations, []);
    });

    // Line 3 of answer.md, the line both boundaries of the "37%" claim name.
    const line3 = "Orbit 2.4 improves cold-start latency by 37% over 2.3, according to the team's benchmark.";

    it("offers, for a start boundary, a word-aligned unique string at each word start that keeps the ref valid", async () => {
        const items = await completeInside('"37%"');
        assert.deepEqual(
            items.map((i) => i.label),
            ["Orbit", "2.4", "improves", "cold", "start", "latency", "by", "37"],
        );
        const at37 = items.find((i) => i.label === "37");
        assert.equal(at37?.detail, '"37%" (answer.md:3:42-3:45)');
        assert.deepEqual(at37?.textEdit, { range: rangeOf(text, '"37%"'), newText: '"37"' });
        assert.equal(items[0].detail, '"Orbit 2.4 improves cold-start latency by 37%" (answer.md:3:1-3:45)');
        for (const [index, item] of items.entries()) {
            const label = String(item.label);
            const at = line3.indexOf(label);
            assert.equal(line3.indexOf(label, at + 1), -1, `${label} is unique`);
            assert.ok(at === 0 || !/[\p{L}\p{N}]/u.test(line3[at - 1]), `${label} starts a word`);
            // The detail is the text of the span the ref gets: from this start to the end "37%".
            assert.ok(item.detail?.startsWith(`"${line3.slice(at, 44)}"`), `${label}: ${item.detail}`);
            assert.equal(item.sortText, String(index).padStart(5, "0"), "listed in this order");
        }
    });

    it("offers, for an end boundary, only ends that keep the ref valid, never a fragment", async () => {
        const items = await completeInside('"37%"', 1);
        const labels = items.map((i) => String(i.label));
        // The sentence's end first (the likely end of a claim), then the others in line order.
        assert.deepEqual(labels, [
            "benchmark.",
            "37%",
            "over",
            "2.3",
            "2.3,",
            "according",
            // A lone "to" or "the" says nothing: the end reaches back to a meaningful word.
            "according to",
            "according to the",
            "team's",
            "benchmark",
        ]);
        assert.equal(items[0].detail, `"${line3.slice(41)}" (answer.md:3:42-3:90)`);
        assert.equal(items[1].detail, '"37%" (answer.md:3:42-3:45)');
        for (const [index, item] of items.entries())
            assert.equal(item.sortText, String(index).padStart(5, "0"), "listed in this order");
        // Ends before the start ("Orbit", "2.4") would make the span invalid: not offered.
        assert.ok(!labels.includes("Orbit") && !labels.includes("7") && !labels.includes("%"), labels.join(" | "));
    });

    it("an empty end string typed after a start offers the sentence's end first, never a word before the start", async () => {
        const typed = text.replace('"end": { "line": 3, "str": "37%" } }', '"end": { "line": 3, "str": "" } }');
        const typedUri = await client.open("typed-empty-end.sourcecheck.json", "sourcecheck", typed);
        // The claim's end string, now "": the first "" after the claim's start "37%".
        const startAt = typed.indexOf('"str": "37%"');
        const empty = typed.indexOf('"str": ""', startAt) + '"str": '.length;
        const before = typed.slice(0, empty + 1).split("\n");
        const items = await client.request<CompletionItem[]>("textDocument/completion", {
            textDocument: { uri: typedUri },
            position: { line: before.length - 1, character: before[before.length - 1].length },
        });
        const labels = items.map((i) => String(i.label));
        assert.equal(labels[0], "benchmark.", labels.join(" | "));
        assert.ok(!labels.includes("Orbit") && !labels.includes("2.4"), labels.join(" | "));
        await client.close(typedUri);
    });

    it("without a usable other boundary, offers each word start with where it is and the text it starts", async () => {
        const typed = text.replace('"end": { "line": 3, "str": "37%" } }', '"end": { "line": 3, "str": "" } }');
        const typedUri = await client.open("typed-end.sourcecheck.json", "sourcecheck", typed);
        const at = rangeOf(typed, '"37%"').start;
        const items = await client.request<CompletionItem[]>("textDocument/completion", {
            textDocument: { uri: typedUri },
            position: { line: at.line, character: at.character + 1 },
        });
        assert.equal(items[0].label, "Orbit");
        assert.equal(
            items[0].detail,
            'start of the span at line 3, column 1: "Orbit 2.4 improves cold-start latency by⋯ 29 characters cut ⋯he team\'s benchmark."',
        );
        // A lone "by" says nothing: the start reaches the next meaningful word (docs/boundaries.md, "Readable").
        const by = items.find((i) => i.label === "by 37% over");
        assert.ok(by?.detail?.startsWith('start of the span at line 3, column 39: "by 37% over'), by?.detail);
        await client.close(typedUri);
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
