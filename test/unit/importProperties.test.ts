/**
 * Property: whatever the documents and answers (mixed scripts, emoji, CRLF), a cited span in any
 * provider's shape imports to an annotation that the real resolver (core/check.ts) resolves to exactly
 * the cited text, at the cited place, or is listed as not converted for a reason that holds. The
 * oracle is the generator's own span, counted independently (Array.from for code points,
 * Buffer.byteLength for UTF-8 bytes), never the code under test.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { validateAnnotations } from "../../server/src/core/check";
import { LineIndex } from "../../server/src/core/lines";
import { Session, SessionDocument } from "../../server/src/core/session";
import { importResponse } from "../../server/src/operations/import";

const WORDS = [
    "alpha",
    "Beta",
    "gamma",
    "数据",
    "模型",
    "验证",
    "🚀",
    "😀",
    "naïve",
    "x",
    "42",
    "3.14",
    ",",
    ".",
    "。",
    "—",
    "don't",
];

const line = fc
    .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 9 })
    .chain((words) =>
        fc
            .array(fc.constantFrom(" ", "", " "), { minLength: words.length, maxLength: words.length })
            .map((gaps) => words.map((w, i) => (i === 0 ? w : gaps[i] + w)).join("")),
    );
const text = fc
    .record({
        lines: fc.array(line, { minLength: 1, maxLength: 6 }),
        eol: fc.constantFrom("\n", "\r\n"),
    })
    .map(({ lines, eol }) => lines.join(eol));

/** A span [start, end) of code points of `value`, as UTF-16 offsets (never inside a surrogate pair). */
function span(value: string, a: number, b: number): { start: number; end: number } {
    const points = Array.from(value);
    const from = Math.min(a, b) % points.length;
    const to = from + 1 + (Math.max(a, b) % (points.length - from));
    const start = points.slice(0, from).join("").length;
    return { start, end: start + points.slice(from, to).join("").length };
}

const lf = (value: string) => value.replace(/\r\n?/g, "\n");
/** What a span means once line endings are LF and its edge blanks are gone: its text and LF offset. */
function expected(raw: string, s: { start: number; end: number }): { text: string; at: number } {
    // Each CRLF whose CR lies before the offset is one character fewer once LF (a cut between CR and LF too).
    const lfAt = (offset: number) => offset - (raw.slice(0, offset + 1).match(/\r\n/g) ?? []).length;
    const cut = lf(raw.slice(s.start, s.end));
    const lead = cut.length - cut.trimStart().length;
    return { text: cut.trim(), at: lfAt(s.start) + lead };
}

type Provider = "anthropic" | "gemini" | "cohere" | "openai";

interface Case {
    provider: Provider;
    documents: string[];
    answerPieces: string[];
    cites: { piece: number; document: number; a: number; b: number; c: number; d: number; codePoints: boolean }[];
}

const arbitraryCase: fc.Arbitrary<Case> = fc
    .record({
        provider: fc.constantFrom<Provider>("anthropic", "gemini", "cohere", "openai"),
        documents: fc.array(text, { minLength: 1, maxLength: 3 }),
        answerPieces: fc.array(text, { minLength: 1, maxLength: 4 }),
    })
    .chain((base) =>
        fc
            .array(
                fc.record({
                    piece: fc.nat(base.answerPieces.length - 1),
                    document: fc.nat(base.documents.length - 1),
                    a: fc.nat(200),
                    b: fc.nat(200),
                    c: fc.nat(200),
                    d: fc.nat(200),
                    codePoints: fc.boolean(),
                }),
                { minLength: 1, maxLength: 5 },
            )
            .map((cites) => ({ ...base, cites })),
    );

const documentPath = (n: number) => `docs/d${n}.md`;

/** The response in the provider's shape, and for each citation the claim and source it means. */
function build(c: Case): {
    response: unknown;
    request?: unknown;
    claims: { text: string; at: number }[];
    sources: { text: string; at: number }[];
} {
    const claims: { text: string; at: number }[] = [];
    const sources: { text: string; at: number }[] = [];
    const answerRaw = c.answerPieces.join(" ");
    const pieceStart = (i: number) => c.answerPieces.slice(0, i).join(" ").length + (i > 0 ? 1 : 0);
    const sourceSpan = (cite: Case["cites"][number]) => {
        const raw = c.documents[cite.document];
        const s = span(raw, cite.c, cite.d);
        sources.push(expected(raw, s));
        return { raw, s };
    };
    switch (c.provider) {
        case "anthropic": {
            // One text block per piece (the separating blank its own block): a citation claims its block.
            const blocks: { type: "text"; text: string; citations: unknown[] }[] = [];
            c.answerPieces.forEach((piece, i) => {
                if (i > 0) blocks.push({ type: "text", text: " ", citations: [] });
                blocks.push({ type: "text", text: piece, citations: [] });
            });
            for (const cite of c.cites) {
                const { raw, s } = sourceSpan(cite);
                const count = (t: string) => (cite.codePoints ? Array.from(t).length : t.length);
                blocks[cite.piece * 2].citations.push({
                    type: "char_location",
                    cited_text: raw.slice(s.start, s.end),
                    document_index: cite.document,
                    document_title: null,
                    start_char_index: count(raw.slice(0, s.start)),
                    end_char_index: count(raw.slice(0, s.end)),
                });
            }
            // Claims in the order the response lists citations: block by block.
            const ordered = [...c.cites].sort((x, y) => x.piece - y.piece);
            sources.length = 0;
            for (const cite of ordered) {
                const raw = c.documents[cite.document];
                sources.push(expected(raw, span(raw, cite.c, cite.d)));
                const start = pieceStart(cite.piece);
                claims.push(expected(answerRaw, { start, end: start + c.answerPieces[cite.piece].length }));
            }
            const request = {
                messages: [
                    {
                        role: "user",
                        content: c.documents.map((data) => ({
                            type: "document",
                            source: { type: "text", media_type: "text/plain", data },
                        })),
                    },
                ],
            };
            return { response: { type: "message", role: "assistant", content: blocks }, request, claims, sources };
        }
        case "gemini": {
            const supports = c.cites.map((cite, n) => {
                const piece = c.answerPieces[cite.piece];
                const claim = span(piece, cite.a, cite.b);
                const start = pieceStart(cite.piece);
                claims.push(expected(answerRaw, { start: start + claim.start, end: start + claim.end }));
                sourceSpan(cite);
                return {
                    segment: {
                        partIndex: cite.piece,
                        startIndex: Buffer.byteLength(piece.slice(0, claim.start)),
                        endIndex: Buffer.byteLength(piece.slice(0, claim.end)),
                    },
                    groundingChunkIndices: [n],
                };
            });
            const chunks = c.cites.map((cite, n) => ({
                retrievedContext: {
                    title: documentPath(cite.document),
                    text: c.documents[cite.document].slice(
                        span(c.documents[cite.document], cite.c, cite.d).start,
                        span(c.documents[cite.document], cite.c, cite.d).end,
                    ),
                    uri: `x${n}`,
                },
            }));
            const parts = c.answerPieces.map((piece, i) => ({ text: i > 0 ? ` ${piece}` : piece }));
            // Each part but the first starts with the blank that joins it: segments count from the part.
            for (const support of supports) {
                if (support.segment.partIndex > 0) {
                    support.segment.startIndex += 1;
                    support.segment.endIndex += 1;
                }
            }
            return {
                response: {
                    candidates: [
                        {
                            content: { parts },
                            groundingMetadata: { groundingChunks: chunks, groundingSupports: supports },
                        },
                    ],
                },
                claims,
                sources,
            };
        }
        case "cohere": {
            const citations = c.cites.map((cite) => {
                const start = pieceStart(cite.piece);
                const claim = span(c.answerPieces[cite.piece], cite.a, cite.b);
                const from = start + claim.start;
                const to = start + claim.end;
                claims.push(expected(answerRaw, { start: from, end: to }));
                const { raw, s } = sourceSpan(cite);
                const count = (t: string) => (cite.codePoints ? Array.from(t).length : t.length);
                return {
                    start: count(answerRaw.slice(0, from)),
                    end: count(answerRaw.slice(0, to)),
                    text: answerRaw.slice(from, to),
                    sources: [
                        {
                            type: "document",
                            id: `doc_${cite.document}`,
                            document: { id: `doc_${cite.document}`, text: raw.slice(s.start, s.end) },
                        },
                    ],
                };
            });
            return {
                response: { message: { role: "assistant", content: [{ type: "text", text: answerRaw }], citations } },
                claims,
                sources,
            };
        }
        case "openai": {
            // A file citation's index is where its claim ends; its chunk is the cited text.
            const results: unknown[] = [];
            const annotations = c.cites.map((cite, n) => {
                const { raw, s } = sourceSpan(cite);
                results.push({
                    file_id: `file-${n}`,
                    filename: documentPath(cite.document),
                    text: raw.slice(s.start, s.end),
                });
                const end = pieceStart(cite.piece) + c.answerPieces[cite.piece].length;
                claims.push({ text: "", at: lf(answerRaw.slice(0, end)).length });
                return {
                    type: "file_citation",
                    file_id: `file-${n}`,
                    filename: documentPath(cite.document),
                    index: end,
                };
            });
            const output = [
                { type: "file_search_call", id: "fs", status: "completed", queries: [], results },
                {
                    type: "message",
                    role: "assistant",
                    content: [{ type: "output_text", text: answerRaw, annotations }],
                },
            ];
            return { response: { object: "response", output }, claims, sources };
        }
    }
}

describe("import: property", () => {
    it("every converted citation resolves to exactly its cited text at its place, in every provider's shape (counted)", () => {
        const counts = { cases: 0, citations: 0, converted: 0, byProvider: {} as Record<string, number> };
        fc.assert(
            fc.property(arbitraryCase, (c) => {
                const { response, request, claims, sources } = build(c);
                const files = Object.fromEntries(c.documents.map((d, n) => [documentPath(n), d]));
                const outcome = importResponse(
                    {
                        response,
                        request,
                        answerPath: "answer.md",
                        documents:
                            c.provider === "cohere"
                                ? c.documents.map((_, n) => ({ key: `doc_${n}`, path: documentPath(n) }))
                                : c.provider === "anthropic"
                                  ? c.documents.map((_, n) => ({ key: String(n), path: documentPath(n) }))
                                  : [],
                    },
                    {
                        document: (path) => new SessionDocument(path, lf(files[path])),
                        files: () => Object.keys(files),
                    },
                );
                if (!outcome.ok) assert.fail(`${outcome.error.code}: ${outcome.error.message}`);
                const result = outcome.result;
                counts.cases++;
                counts.citations += claims.length;
                counts.converted += result.converted;
                counts.byProvider[c.provider] = (counts.byProvider[c.provider] ?? 0) + result.converted;
                const answer = lf(result.answerText);
                const documents = [
                    new SessionDocument("answer.md", answer),
                    ...c.documents.map((d, n) => new SessionDocument(documentPath(n), lf(d))),
                ];
                const report = validateAnnotations(new Session(documents), result.annotations);
                assert.equal(report.invalidCount, 0);
                const skipped = new Set(result.notConverted.map((n) => n.citation - 1));
                let k = 0;
                for (let i = 0; i < claims.length; i++) {
                    if (skipped.has(i)) continue;
                    const entry = report.entries[k++];
                    assert.ok(entry.claim.valid && entry.sources[0].valid);
                    const source = entry.sources[0];
                    const sourceDoc = documents.find((d) => d.path === source.path) as SessionDocument;
                    assert.equal(source.text, sources[i].text);
                    assert.equal(offsetOf(sourceDoc.lines, source.range.start), sources[i].at);
                    if (c.provider === "openai") {
                        // The sentence that ends at the index: its text ends where the claim's piece ends.
                        const end = offsetOf(new LineIndex(answer), entry.claim.range.end);
                        assert.equal(answer.slice(0, claims[i].at).trimEnd().length, end);
                    } else {
                        assert.equal(entry.claim.text, claims[i].text);
                        assert.equal(offsetOf(new LineIndex(answer), entry.claim.range.start), claims[i].at);
                    }
                }
                assert.equal(k, report.entries.length);
                for (const n of result.notConverted) {
                    // The cited text is always in its document: only a repeat, or unmarkable edges, may stop it.
                    const blank = sources[n.citation - 1]?.text === "";
                    assert.ok(
                        ["text-ambiguous", "claim-not-found"].includes(n.reason) ||
                            (blank && n.reason === "no-source-text"),
                        `${n.reason}: ${n.message}`,
                    );
                    if (n.reason === "text-ambiguous" && c.provider !== "anthropic") {
                        const i = n.citation - 1;
                        const doc = lf(c.documents[c.cites[i].document]);
                        assert.ok(
                            doc.indexOf(sources[i].text) !== doc.lastIndexOf(sources[i].text) ||
                                /cannot be marked|no ref can mark/.test(n.message),
                            n.message,
                        );
                    }
                }
            }),
            { numRuns: 400, seed: 42 },
        );
        assert.equal(counts.cases, 400);
        assert.ok(counts.converted >= counts.citations / 3, `converted ${counts.converted} of ${counts.citations}`);
        for (const provider of ["anthropic", "gemini", "cohere", "openai"])
            assert.ok(
                (counts.byProvider[provider] ?? 0) >= 20,
                `${provider}: ${counts.byProvider[provider]} converted`,
            );
        console.log(
            `      ${counts.cases} cases, ${counts.citations} citations, ${counts.converted} converted (${JSON.stringify(counts.byProvider)})`,
        );
    });
});

function offsetOf(lines: LineIndex, position: { line: number; column: number }): number {
    return lines.offsetAt(position.line, position.column);
}
