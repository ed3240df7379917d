import * as assert from "node:assert/strict";
import type { Hover, MarkupContent } from "vscode-languageserver-protocol";
import { rangeOf, startClient, type TestClient } from "./harness";

function markdown(hover: Hover | null): string {
    assert.ok(hover, "expected a hover");
    return (hover.contents as MarkupContent).value;
}

describe("hover", () => {
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

    const hoverAt = (needle: string, occurrence = 0, shift = 1) => {
        const range = rangeOf(text, needle, occurrence);
        return client.request<Hover | null>("textDocument/hover", {
            textDocument: { uri },
            position: { line: range.start.line, character: range.start.character + shift },
        });
    };

    it("on a claim shows the whole annotation: claim and every source, with locations", async () => {
        const value = markdown(await hoverAt('"37%"'));
        // Numbered from 1 as everything a person reads: the first annotation is "Annotation 1".
        assert.ok(value.startsWith("**Annotation 1** · supported\n"), value);
        assert.ok(value.includes("**Claim** · [answer.md:3:42-3:45]("), value);
        assert.ok(value.includes("```text\n37%\n```"), value);
        // The CRLF benchmark file: the span is shown without its \r.
        assert.ok(
            value.includes("**Source 1** · supports · confidence 0.95 · [sources/benchmark.txt:4:1-4:12]("),
            value,
        );
        assert.ok(value.includes("```text\ndelta: -37%\n```"), value);
    });

    it("on any part of a source ref shows that source only, its polarity and confidence", async () => {
        for (const needle of ['"path": "sources/release-notes.md", "start": { "line": 11', '"low-priority jobs"']) {
            const value = markdown(await hoverAt(needle));
            assert.ok(
                value.startsWith("**Source 1** · refutes · confidence 0.9 · [sources/release-notes.md:11:3-11:70]("),
                value,
            );
            assert.ok(
                value.includes("```text\nUnder sustained heavy load the scheduler may drop low-priority jobs\n```"),
                value,
            );
            assert.ok(!value.includes("**Claim**"), value);
        }
    });

    it("the hover range is the whole ref object", async () => {
        const hover = await hoverAt('"delta"');
        const ref =
            '{ "path": "sources/benchmark.txt", "start": { "line": 4, "str": "delta" }, "end": { "line": 4, "str": "-37%" }, "polarity": "supports", "confidence": 0.95 }';
        assert.deepEqual(hover?.range, rangeOf(text, ref));
    });

    it("on a broken ref says why it does not resolve, and shows the line it names", async () => {
        const value = markdown(await hoverAt('"planned for 2.6."'));
        assert.ok(value.includes("does not resolve"), value);
        assert.ok(value.includes("`boundary-not-found`"), value);
        assert.ok(
            value.includes(
                "Line 16 of `sources/release-notes.md`:\n\n```text\nOrbit 2.4 ships for Linux and macOS. Windows support is planned for 2.5.\n```",
            ),
            value,
        );
    });

    it("on a broken boundary, the problem's message appears once: in the diagnostic the editor shows there, not again in the hover", async () => {
        const published = await client.waitForPublished(uri, (p) => p.diagnostics.length > 0);
        const range = rangeOf(text, '"planned for 2.6."');
        const position = { line: range.start.line, character: range.start.character + 1 };
        const inside = (r: typeof range) =>
            (r.start.line < position.line ||
                (r.start.line === position.line && r.start.character <= position.character)) &&
            (r.end.line > position.line || (r.end.line === position.line && r.end.character >= position.character));
        const here = published.diagnostics.filter((d) => inside(d.range));
        assert.equal(here.length, 1, JSON.stringify(published.diagnostics));
        const message = here[0].message;
        const value = markdown(await hoverAt('"planned for 2.6."'));
        const count = (haystack: string) => haystack.split(message).length - 1;
        assert.equal(count(value) + here.filter((d) => d.message === message).length, 1, value);
        assert.ok(value.includes("`boundary-not-found` (the problem above)"), value);
        // Elsewhere on the same ref (its path) no diagnostic is shown, so the hover gives the message itself.
        const onPath = markdown(await hoverAt('"path": "sources/release-notes.md", "start": { "line": 16'));
        assert.ok(onPath.includes(`\`boundary-not-found\`: ${message}`), onPath);
    });

    it("on a claim gives the annotation's verdict, and each source's text, polarity, confidence and errors", async () => {
        // Annotation 8 (index 7): a misspelt path, then a line out of range.
        const value = markdown(await hoverAt('"according to"'));
        assert.ok(value.startsWith("**Annotation 8** · broken\n"), value);
        assert.ok(
            value.includes("**Source 1** · supports · confidence 0.9 · `sources/benchmarks.txt` does not resolve"),
            value,
        );
        assert.ok(value.includes("- `unknown-path`:") || value.includes("- `unreadable-document`:"), value);
        assert.ok(
            value.includes("**Source 2** · supports · confidence 0.9 · `sources/benchmark.txt` does not resolve"),
            value,
        );
        assert.ok(value.includes("- `line-out-of-range`: start line 9 is out of range"), value);
        // Annotation 4 (index 3): one refuting source.
        const refuted = markdown(await hoverAt('"never drops jobs"'));
        assert.ok(refuted.startsWith("**Annotation 4** · refuted\n"), refuted);
        assert.ok(
            refuted.includes("**Source 1** · refutes · confidence 0.9 · [sources/release-notes.md:11:3-11:70]("),
            refuted,
        );
    });

    it("on a ref that fails the schema lists its own problems only", async () => {
        const sources = Array.from({ length: 11 }, (_, i) => ({
            path: "answer.md",
            start: { line: 3, str: "37%" },
            end: { line: 3, str: "37%" },
            polarity: i === 1 || i === 10 ? "maybe" : "supports",
            confidence: 1,
        }));
        const broken = JSON.stringify({ annotations: [{ claim: sources[0], sources }] }, null, 1);
        const brokenUri = await client.open("schema.sourcecheck.json", "sourcecheck", broken);
        const at = rangeOf(broken, '"maybe"').start;
        const hover = await client.request<Hover>("textDocument/hover", {
            textDocument: { uri: brokenUri },
            position: at,
        });
        const value = markdown(hover);
        assert.ok(value.startsWith("**This ref cannot be read**"), value);
        assert.equal(value.match(/`schema`/g)?.length, 1, value);
        // On the bad value the editor shows the diagnostic's message in the same hover: not repeated.
        assert.ok(value.includes("`schema` (the problem above)"), value);
        // Elsewhere on the same ref (its path), the hover gives the message itself.
        const onPath = markdown(
            await client.request<Hover>("textDocument/hover", {
                textDocument: { uri: brokenUri },
                position: rangeOf(broken, '"path"', 2).start,
            }),
        );
        assert.equal(onPath.match(/`schema`/g)?.length, 1, onPath);
        assert.ok(onPath.includes('polarity must be "supports" or "refutes"'), onPath);
    });

    it("outside refs there is no hover", async () => {
        assert.equal(await hoverAt('"annotations"'), null);
    });

    it("shortens long spans with a count of what was cut, and keeps whitespace", async () => {
        const long = `start ${"x".repeat(3000)}\tend`;
        const session = JSON.stringify({
            documents: [{ path: "doc", content: `${long}\n  indented  line  ` }],
            annotations: [
                {
                    claim: { path: "doc", start: { line: 1, str: "start" }, end: { line: 1, str: "end" } },
                    sources: [
                        {
                            path: "doc",
                            start: { line: 2, str: "  indented" },
                            end: { line: 2, str: "line  " },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                },
            ],
        });
        const sessionUri = await client.open("long.sourcecheck.json", "sourcecheck", session);
        const at = rangeOf(session, '"start"', 1).start;
        const value = markdown(
            await client.request<Hover>("textDocument/hover", {
                textDocument: { uri: sessionUri },
                position: { line: at.line, character: at.character + 2 },
            }),
        );
        assert.match(value, /⋯ 2210 characters cut ⋯/);
        assert.ok(value.includes("```text\n  indented  line  \n```"), value);
        assert.ok(value.includes("doc:1:1-1:3011"), value);
    });
});
