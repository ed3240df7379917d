import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CompletionItem, CompletionList } from "vscode-languageserver-protocol";
import { copyDemo, positionOf, sleep, startClient, type TestClient } from "./harness";

/** An annotation file with one broken ref: it is published with diagnostics when (and only when) scanned. */
const BROKEN = JSON.stringify([
    {
        claim: { path: "answer.md", start: { line: 99, str: "x" }, end: { line: 99, str: "x" } },
        sources: [{ path: "answer.md", start: { line: 3, str: "37%" }, end: { line: 3, str: "37%" } }],
    },
]);

function write(root: string, relative: string, text: string): void {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
}

const scanEnds = (client: TestClient) =>
    client.progress.filter((p) => (p as { value: { kind: string } }).value.kind === "end").length;
const scanBegins = (client: TestClient) =>
    client.progress.filter((p) => (p as { value: { kind: string } }).value.kind === "begin").length;

describe("workspace scan: exclusions and settings", () => {
    it("skips files.exclude, search.exclude, sourcecheck.exclude and .gitignore (nested too), and nothing else", async () => {
        const root = copyDemo();
        const files = {
            kept: "kept/a.sourcecheck.json",
            byFiles: "hidden/a.sourcecheck.json",
            bySearch: "generated/deep/a.sourcecheck.json",
            byOwn: "fixtures/a.sourcecheck.json",
            byGitignore: "build/a.sourcecheck.json",
            byNestedGitignore: "docs/drafts/a.sourcecheck.json",
            byGitignoredName: "docs/notes.sourcecheck.json",
            offWhenFalse: "scratch/a.sourcecheck.json",
        };
        for (const relative of Object.values(files)) write(root, relative, BROKEN);
        write(root, ".gitignore", "build/\n");
        write(root, "docs/.gitignore", "drafts\nnotes.sourcecheck.json\n");
        const client = await startClient({
            root,
            pull: false,
            settings: { exclude: ["fixtures/**"] },
            sections: {
                "files.exclude": { "**/hidden": true, "**/scratch": false },
                "search.exclude": { "**/generated": true },
            },
        });
        try {
            await client.waitForPublished(client.uri(files.kept), (p) => p.diagnostics.length > 0);
            await client.waitForPublished(client.uri(files.offWhenFalse), (p) => p.diagnostics.length > 0);
            await client.waitFor(() => scanEnds(client) > 0, "the scan's end");
            await sleep(300);
            for (const [why, relative] of Object.entries(files)) {
                if (why === "kept" || why === "offWhenFalse") continue;
                assert.ok(!client.published.has(client.uri(relative)), `${relative} (${why}) was scanned`);
            }
        } finally {
            await client.stop();
        }
    });

    it("rescans when an exclusion changes, and not for a setting the scan does not read", async () => {
        const root = copyDemo();
        write(root, "later/a.sourcecheck.json", BROKEN);
        const client = await startClient({ root, pull: false });
        try {
            await client.waitForPublished(client.uri("later/a.sourcecheck.json"), (p) => p.diagnostics.length > 0);
            await client.waitFor(() => scanEnds(client) === 1, "the first scan's end");
            // A setting only the client reads: no second scan.
            client.settings = { decorations: { enabled: false } };
            await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
            await sleep(500);
            assert.equal(scanBegins(client), 1, "a settings change the scan does not read started a scan");
            // Excluding the folder: scanned again, and its file's diagnostics are cleared.
            client.settings = { exclude: ["later"] };
            await client.connection.sendNotification("workspace/didChangeConfiguration", { settings: null });
            await client.waitForPublished(client.uri("later/a.sourcecheck.json"), (p) => p.diagnostics.length === 0);
            assert.equal(scanBegins(client), 2);
        } finally {
            await client.stop();
        }
    });
});

describe("annotation files: every problem once, schema completion", () => {
    it("an empty sources list (a claim waiting for its evidence) is information, other schema errors stay errors", async () => {
        const root = copyDemo();
        const text = JSON.stringify(
            {
                annotations: [
                    {
                        claim: { path: "answer.md", start: { line: 3, str: "37%" }, end: { line: 3, str: "37%" } },
                        sources: [],
                    },
                    { claim: { path: "answer.md", start: { line: 3, str: "37%" }, end: { line: 3, str: "37%" } } },
                ],
            },
            null,
            2,
        );
        write(root, "waiting.sourcecheck.json", text);
        const client = await startClient({ root, pull: true });
        try {
            const uri = await client.open("waiting.sourcecheck.json", "sourcecheck");
            const items = await client.pull(uri);
            const waiting = items.find((d) => d.data?.pointer === "/annotations/0/sources");
            const missing = items.find((d) => d.data?.pointer === "/annotations/1/sources");
            assert.ok(waiting && missing, JSON.stringify(items));
            assert.equal(waiting.severity, 3, "empty sources: Information");
            assert.match(waiting.message, /Add Selection as Supporting Source/);
            assert.equal(missing.severity, 1, "missing sources: Error");
            assert.equal(waiting.source, "sourcecheck");
        } finally {
            await client.stop();
        }
    });

    it("completes property names and values from the schema where no ref value is typed", async () => {
        const root = copyDemo();
        const text =
            '{\n  "annotations": [\n    {\n      "claim": { "path": "answer.md", "" },\n      ""\n    }\n  ]\n}\n';
        write(root, "typing.sourcecheck.json", text);
        const client = await startClient({ root, pull: true });
        try {
            const uri = await client.open("typing.sourcecheck.json", "sourcecheck");
            const complete = async (offset: number) => {
                const result = await client.request<CompletionItem[] | CompletionList>("textDocument/completion", {
                    textDocument: { uri },
                    position: positionOf(text, offset),
                });
                return (Array.isArray(result) ? result : result.items).map((i) => i.label);
            };
            // Inside the empty key of a ref: the ref's missing properties.
            const inRef = await complete(text.indexOf('""') + 1);
            assert.ok(inRef.includes("start") && inRef.includes("end"), inRef.join(" | "));
            assert.ok(!inRef.includes("path"), "path is already there");
            // After the claim, inside the annotation: sources.
            const inAnnotation = await complete(text.lastIndexOf('""') + 1);
            assert.ok(inAnnotation.includes("sources"), inAnnotation.join(" | "));
        } finally {
            await client.stop();
        }
    });
});
