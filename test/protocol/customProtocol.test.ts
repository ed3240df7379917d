import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { rangeOf, startClient, type TestClient } from "./harness";

interface CitedSpans {
    uri: string;
    spans: {
        range: ReturnType<typeof rangeOf>;
        kind: string;
        citations: {
            annotationUri: string;
            /** Numbered from 1. */
            annotation: number;
            role: "claim" | "source";
            source?: number;
            polarity?: string;
            confidence?: number;
            claimText?: string;
            verdict: string;
            refRange: ReturnType<typeof rangeOf>;
            problems?: {
                role: "claim" | "source";
                source?: number;
                path: string;
                code: string;
                message: string;
                refRange: ReturnType<typeof rangeOf>;
            }[];
        }[];
    }[];
    brokenRefs: {
        range: ReturnType<typeof rangeOf>;
        line: number;
        role: "claim" | "source";
        source?: number;
        annotationUri: string;
        annotation: number;
        code: string;
        message: string;
        refRange: ReturnType<typeof rangeOf>;
    }[];
}

const line = (l: number, from: number, to: number) => ({
    start: { line: l, character: from },
    end: { line: l, character: to },
});

describe("custom protocol", () => {
    let client: TestClient;
    let uri: string;
    let text: string;
    let root: string;
    beforeEach(async () => {
        client = await startClient({ pull: true });
        root = client.options.root;
        uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        text = client.text(uri);
    });
    afterEach(async () => {
        await client.stop();
    });

    it("sourcecheck/citedSpans: the valid claim spans of the answer, with who cites them", async () => {
        const result = await client.request<CitedSpans>("sourcecheck/citedSpans", { uri: client.uri("answer.md") });
        assert.equal(result.uri, client.uri("answer.md"));
        // Valid claims: annotations 1-4 and 6-8 (annotation 5's claim is ambiguous), sorted by position.
        assert.deepEqual(
            result.spans.map((s) => [s.kind, s.range, s.citations.map((c) => c.annotation)]),
            [
                ["claim", line(2, 10, 37), [7]],
                ["claim", line(2, 41, 44), [1]],
                ["claim", line(2, 55, 89), [8]],
                ["claim", line(3, 17, 49), [2]],
                ["claim", line(4, 36, 66), [3]],
                ["claim", line(5, 18, 58), [4]],
                ["claim", line(7, 13, 52), [6]],
            ],
        );
        assert.deepEqual(result.spans[1].citations[0], {
            annotationUri: uri,
            annotation: 1,
            role: "claim",
            claimText: "37%",
            verdict: "supported",
            // The claim's hover lists its sources from 1, each with its own verdict (docs/custom-protocol.md).
            sources: [{ source: 1, polarity: "supports", confidence: 0.95, verdict: "supported" }],
            refRange: rangeOf(
                text,
                '{ "path": "answer.md", "start": { "line": 3, "str": "37%" }, "end": { "line": 3, "str": "37%" } }',
            ),
        });
    });

    it("sourcecheck/citedSpans: sources carry their polarity, confidence and the claim they bear on", async () => {
        const bench = await client.request<CitedSpans>("sourcecheck/citedSpans", {
            uri: client.uri("sources/benchmark.txt"),
        });
        assert.equal(bench.spans.length, 1);
        assert.deepEqual(bench.spans[0].range, line(3, 0, 11));
        assert.equal(bench.spans[0].kind, "supports");
        const citation = bench.spans[0].citations[0];
        assert.deepEqual(
            {
                role: citation.role,
                source: citation.source,
                polarity: citation.polarity,
                confidence: citation.confidence,
                claimText: citation.claimText,
            },
            { role: "source", source: 1, polarity: "supports", confidence: 0.95, claimText: "37%" },
        );
        const notes = await client.request<CitedSpans>("sourcecheck/citedSpans", {
            uri: client.uri("sources/release-notes.md"),
        });
        assert.deepEqual(
            notes.spans.map((s) => [s.kind, s.range.start.line]),
            [
                ["supports", 4],
                ["refutes", 10],
                ["refutes", 11],
            ],
        );
    });

    it("sourcecheck/citedSpansChanged names the documents whose spans changed", async () => {
        await client.waitFor(() => client.citedSpansChanged.length > 0, "the first citedSpansChanged");
        client.citedSpansChanged.length = 0;
        await client.change(uri, text.replace('"planned for 2.6."', '"planned for 2.5."'));
        await client.waitFor(
            () => client.citedSpansChanged.some((uris) => uris.includes(client.uri("sources/release-notes.md"))),
            "citedSpansChanged for release-notes.md",
        );
        const notes = await client.request<CitedSpans>("sourcecheck/citedSpans", {
            uri: client.uri("sources/release-notes.md"),
        });
        assert.deepEqual(notes.spans.at(-1)?.range, line(15, 0, 72));
    });

    it("sourcecheck/refForSelection: the ref with shortest unique boundaries, or why not", async () => {
        // Word-aligned by default (docs/boundaries.md): never "%" alone, never one CJK character.
        const ok = await client.request("sourcecheck/refForSelection", {
            uri: client.uri("answer.md"),
            range: line(2, 41, 44),
        });
        assert.deepEqual(ok, {
            ok: true,
            ref: { path: "answer.md", start: { line: 3, str: "37" }, end: { line: 3, str: "37%" } },
            characterLevel: false,
        });
        const sentence = await client.request("sourcecheck/refForSelection", {
            uri: client.uri("answer.md"),
            range: line(5, 18, 58),
        });
        assert.deepEqual(sentence, {
            ok: true,
            ref: { path: "answer.md", start: { line: 6, str: "never" }, end: { line: 6, str: "load." } },
            characterLevel: false,
        });
        const nested = await client.request("sourcecheck/refForSelection", {
            uri: client.uri("sources/survey-zh.md"),
            range: line(3, 0, 4),
        });
        assert.deepEqual(nested, {
            ok: true,
            ref: { path: "sources/survey-zh.md", start: { line: 4, str: "多数" }, end: { line: 4, str: "团队" } },
            characterLevel: false,
        });
        const empty = (await client.request("sourcecheck/refForSelection", {
            uri: client.uri("answer.md"),
            range: line(2, 5, 5),
        })) as { ok: boolean; message: string };
        assert.equal(empty.ok, false);
        assert.match(empty.message, /empty/);
    });

    it("sourcecheck/refForSelection inside an embedded session's content gives that document's path", async () => {
        const session = JSON.stringify({
            documents: [{ path: "article", content: 'alpha beta\ngamma "delta" gamma' }],
            annotations: [],
        });
        const sessionUri = await client.open("embedded.sourcecheck.json", "sourcecheck", session);
        const at = rangeOf(session, "delta");
        const result = await client.request("sourcecheck/refForSelection", { uri: sessionUri, range: at });
        assert.deepEqual(result, {
            ok: true,
            ref: { path: "article", start: { line: 2, str: "delta" }, end: { line: 2, str: "delta" } },
            characterLevel: false,
        });
    });

    it("sourcecheck/refForSelection widens a selection that cuts a word to the word's edges, and says so", async () => {
        // Selecting "catal" of "cat catalog": cited as the whole word "catalog", never the fragment.
        const doc = await client.open("repeats.txt", "plaintext", "cat catalog\nthe new scheduler\n");
        const result = await client.request("sourcecheck/refForSelection", { uri: doc, range: line(0, 4, 9) });
        assert.deepEqual(result, {
            ok: true,
            ref: { path: "repeats.txt", start: { line: 1, str: "catalog" }, end: { line: 1, str: "catalog" } },
            characterLevel: false,
            widenedTo: line(0, 4, 11),
        });
        // A selection on word edges is cited as it is, with no widenedTo.
        const exact = await client.request<{ widenedTo?: unknown }>("sourcecheck/refForSelection", {
            uri: doc,
            range: line(1, 4, 17),
        });
        assert.equal(exact.widenedTo, undefined);
    });

    it("sourcecheck/refForSelection follows sourcecheck.boundaryStyle", async () => {
        await client.stop();
        client = await startClient({ pull: true, settings: { boundaryStyle: "shortest" } });
        const shortest = await client.request("sourcecheck/refForSelection", {
            uri: client.uri("answer.md"),
            range: line(2, 41, 44),
        });
        assert.deepEqual(shortest, {
            ok: true,
            ref: { path: "answer.md", start: { line: 3, str: "37" }, end: { line: 3, str: "%" } },
            characterLevel: true,
        });
    });

    it("sourcecheck/citedSpans: the verdict of each citing annotation, and broken refs on the line they name", async () => {
        const notes = await client.request<CitedSpans>("sourcecheck/citedSpans", {
            uri: client.uri("sources/release-notes.md"),
        });
        // Annotation 2 supported (one supporting source), 4 refuted, 5 broken (its claim is ambiguous).
        const verdictOf = (annotation: number) =>
            notes.spans.flatMap((s) => s.citations).find((c) => c.annotation === annotation)?.verdict;
        assert.deepEqual([verdictOf(2), verdictOf(4), verdictOf(5)], ["supported", "refuted", "broken"]);
        // "planned for 2.6." is not on line 16 of the release notes: a broken ref, shown on that line.
        const broken = notes.brokenRefs.find((b) => b.message.includes("planned for 2.6."));
        assert.ok(broken, JSON.stringify(notes.brokenRefs));
        assert.equal(broken.line, 16);
        assert.deepEqual(broken.range, line(15, 0, 72));
        assert.match(broken.message, /planned for 2\.6\./);
        assert.deepEqual(
            broken.refRange,
            rangeOf(
                text,
                '{ "path": "sources/release-notes.md", "start": { "line": 16, "str": "Orbit 2.4 ships" }, "end": { "line": 16, "str": "planned for 2.6." }, "polarity": "refutes", "confidence": 0.95 }',
            ),
        );
        // Fixing the ref turns it into a span: the broken ref is gone.
        await client.change(uri, text.replace('"planned for 2.6."', '"planned for 2.5."'));
        const fixed = await client.request<CitedSpans>("sourcecheck/citedSpans", {
            uri: client.uri("sources/release-notes.md"),
        });
        assert.equal(fixed.brokenRefs.filter((b) => b.line === 16).length, 0);
        const answer = await client.request<CitedSpans>("sourcecheck/citedSpans", { uri: client.uri("answer.md") });
        // Annotation 5's claim end is ambiguous ("release" twice on line 7): broken, on line 7.
        assert.ok(answer.brokenRefs.some((b) => b.annotation === 5 && b.line === 7 && b.code === "boundary-ambiguous"));
    });

    // Issue 34.2: the hover of a claim says which ref of its annotation is broken and why.
    it("sourcecheck/citedSpans: a claim of a broken annotation carries which ref fails, why, and where to fix it", async () => {
        const claimOf = async (annotation: number) =>
            (await client.request<CitedSpans>("sourcecheck/citedSpans", { uri: client.uri("answer.md") })).spans
                .flatMap((s) => s.citations)
                .find((c) => c.annotation === annotation);
        const broken = await claimOf(6);
        assert.equal(broken?.verdict, "broken");
        assert.equal(broken?.problems?.length, 1, JSON.stringify(broken?.problems));
        const [problem] = broken?.problems ?? [];
        assert.deepEqual(
            { role: problem.role, source: problem.source, path: problem.path, code: problem.code },
            { role: "source", source: 1, path: "sources/release-notes.md", code: "boundary-not-found" },
        );
        assert.match(problem.message, /^end boundary "planned for 2\.6\." does not occur on line 16/);
        assert.deepEqual(
            problem.refRange,
            rangeOf(
                text,
                '{ "path": "sources/release-notes.md", "start": { "line": 16, "str": "Orbit 2.4 ships" }, "end": { "line": 16, "str": "planned for 2.6." }, "polarity": "refutes", "confidence": 0.95 }',
            ),
        );
        assert.equal((await claimOf(1))?.problems, undefined, "a supported annotation has no problems");
        await client.change(uri, text.replace('"planned for 2.6."', '"planned for 2.5."'));
        const fixed = await claimOf(6);
        assert.equal(fixed?.verdict, "refuted");
        assert.equal(fixed?.problems, undefined);
    });

    it("sourcecheck/fileSummary counts valid and invalid annotations and schema errors", async () => {
        assert.deepEqual(await client.request("sourcecheck/fileSummary", { uri }), {
            validCount: 4,
            invalidCount: 4,
            schemaErrorCount: 0,
        });
        await client.change(uri, text.replace('"confidence": 0.6', '"confidence": "high"'));
        assert.deepEqual(await client.request("sourcecheck/fileSummary", { uri }), {
            validCount: 3,
            invalidCount: 5,
            schemaErrorCount: 1,
        });
    });

    it("sourcecheck/coverage: share of the non-blank characters covered by claims of valid annotations", async () => {
        const answer = fs.readFileSync(path.join(root, "answer.md"), "utf8");
        const nonBlank = (s: string) => s.replace(/\s/g, "").length;
        const covered = [
            "37%",
            "offline sync for mobile clients.",
            "setup takes under ten minutes.",
            "never drops jobs, even under heavy load.",
        ]
            .map(nonBlank)
            .reduce((a, b) => a + b, 0);
        const { uncovered, ...result } = await client.request<{
            coveredChars: number;
            totalChars: number;
            ratio: number;
            uncovered: { start: { line: number; character: number }; end: { line: number; character: number } }[];
        }>("sourcecheck/coverage", {
            uri: client.uri("answer.md"),
        });
        assert.deepEqual(result, {
            coveredChars: covered,
            totalChars: nonBlank(answer),
            ratio: covered / nonBlank(answer),
        });
        // The sentences no valid claim overlaps: the title, and the lines whose claims are broken.
        const lines = answer.split("\n");
        const texts = uncovered.map((r) => lines[r.start.line].slice(r.start.character, r.end.character));
        assert.ok(texts.includes(lines[0].trim()), texts.join(" | "));
        for (const text of texts) assert.ok(!covered || !text.includes("offline sync"), text);
    });

    it("sourcecheck/lineIndex numbers each line (CRLF normalised), and follows unsaved edits", async () => {
        const bench = await client.request("sourcecheck/lineIndex", { uri: client.uri("sources/benchmark.txt") });
        assert.deepEqual(bench, {
            text: "1 | Cold start, median of 50 runs\n2 | 2.3.0: 820ms\n3 | 2.4.0: 517ms\n4 | delta: -37%\n5 | ",
        });
        const answer = await client.open("answer.md");
        await client.change(answer, "one\ntwo");
        assert.deepEqual(await client.request("sourcecheck/lineIndex", { uri: answer }), { text: "1 | one\n2 | two" });
    });
});
