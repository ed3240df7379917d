// `annotate` (pure core and CLI), the ref warnings it shares with `check`, and cite's messages.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { annotateQuotes, appendToAnnotationFile, editAnnotationFile } from "../../server/src/core/annotate";
import { checkInput } from "../../server/src/core/check";
import { citeQuote, withoutLineNumbers, wordDifferences } from "../../server/src/core/cite";
import { normalizeRefPath } from "../../server/src/core/refPath";
import { midWordWarning, selfCitationWarning } from "../../server/src/core/refWarnings";
import { resolveRef } from "../../server/src/core/resolve";
import { buildSession, SessionDocument } from "../../server/src/core/session";
import { runCli } from "./cliRun";

const answerText = "# Answer\n\nGrowth was 45% in 2020.\nThe catalog lists column families.\n";
const sourceText =
    "# Report\n\nRevenue growth was 45% in 2020, the report says.\nA catalog of column families is kept.\n";
const session = buildSession([
    { path: "answer.md", content: answerText },
    { path: "docs/report.md", content: sourceText },
]);

function ok<T extends { ok: boolean }>(result: T): Extract<T, { ok: true }> {
    if (!result.ok) assert.fail(JSON.stringify(result));
    return result as Extract<T, { ok: true }>;
}

describe("annotate: quotes become one annotation", () => {
    it("cites every quote exactly as cite does, and each ref resolves to its quote", () => {
        const built = ok(
            annotateQuotes(
                {
                    claim: { path: "answer.md", quote: "Growth was 45% in 2020." },
                    sources: [
                        {
                            path: "docs/report.md",
                            quote: "growth was 45% in 2020",
                            polarity: "supports",
                            confidence: 0.9,
                        },
                    ],
                },
                session,
            ),
        );
        const claim = ok(citeQuote(session.get("answer.md") as SessionDocument, "Growth was 45% in 2020."));
        assert.deepEqual(built.annotation.claim, claim.ref);
        const source = built.annotation.sources[0];
        assert.equal(source.polarity, "supports");
        assert.equal(source.confidence, 0.9);
        const resolved = resolveRef(session, source);
        assert.ok(resolved.valid && resolved.text === "growth was 45% in 2020");
        assert.deepEqual(built.warnings, []);
    });

    it("answers the first quote that fails, naming it, with cite's code", () => {
        const failed = annotateQuotes(
            {
                claim: { path: "answer.md", quote: "Growth was 45% in 2020." },
                sources: [
                    { path: "docs/report.md", quote: "Revenue growth", polarity: "supports", confidence: 1 },
                    { path: "docs/report.md", quote: "growth was 42% in 2020", polarity: "refutes", confidence: 1 },
                ],
            },
            session,
        );
        assert.ok(!failed.ok);
        assert.equal(failed.error.code, "quote-not-found");
        assert.equal(failed.error.role, 1);
        assert.equal(failed.error.pointer, "/sources/1");
        assert.match(failed.error.message, /^source 2: /);
        assert.match(failed.error.message, /"42%" \(your quote\) vs "45%" \(the document\)/);
        const ambiguous = annotateQuotes(
            {
                claim: { path: "answer.md", quote: "in 2020" },
                sources: [{ path: "docs/report.md", quote: "x", polarity: "supports", confidence: 1 }],
            },
            buildSession([{ path: "answer.md", content: "in 2020\nand in 2020\n" }]),
        );
        assert.ok(!ambiguous.ok && ambiguous.error.code === "quote-ambiguous" && ambiguous.error.role === "claim");
        assert.deepEqual(ambiguous.error.lines, [1, 2]);
    });

    it("refuses a source that overlaps its own claim, and accepts the same document elsewhere", () => {
        const refused = annotateQuotes(
            {
                claim: { path: "answer.md", quote: "Growth was 45% in 2020." },
                sources: [{ path: "./answer.md", quote: "45% in 2020", polarity: "supports", confidence: 1 }],
            },
            session,
        );
        assert.ok(!refused.ok);
        assert.equal(refused.error.code, "self-citation");
        assert.match(refused.error.message, /source 1: .*own claim/);
        const elsewhere = annotateQuotes(
            {
                claim: { path: "answer.md", quote: "Growth was 45% in 2020." },
                sources: [{ path: "answer.md", quote: "The catalog lists", polarity: "supports", confidence: 1 }],
            },
            session,
        );
        assert.ok(elsewhere.ok);
    });

    it("writes ref paths normalised, strips index line numbers, and notes a mid-word edge", () => {
        const built = ok(
            annotateQuotes(
                {
                    claim: { path: "./answer.md", quote: "4 | The catalog lists column families." },
                    sources: [
                        {
                            path: "docs\\report.md",
                            quote: "talog of column families",
                            polarity: "supports",
                            confidence: 0.5,
                        },
                    ],
                },
                session,
            ),
        );
        assert.equal(built.annotation.claim.path, "answer.md");
        assert.equal(built.annotation.claim.start.line, 4);
        assert.equal(built.annotation.sources[0].path, "docs/report.md");
        assert.equal(built.warnings.length, 1);
        assert.equal(built.warnings[0].code, "mid-word-boundary");
        assert.equal(built.warnings[0].role, 0);
        assert.equal(built.warnings[0].alternative?.text, "catalog of column families");
        const refused = annotateQuotes(
            {
                claim: { path: "../answer.md", quote: "x" },
                sources: [{ path: "a", quote: "b", polarity: "supports", confidence: 1 }],
            },
            session,
        );
        assert.ok(!refused.ok && refused.error.code === "path-outside-root");
    });
});

describe("annotate: appending to an annotation file", () => {
    const annotation = {
        claim: { path: "answer.md", start: { line: 3, str: "Growth" }, end: { line: 3, str: "2020." } },
        sources: [
            {
                path: "docs/report.md",
                start: { line: 3, str: "growth" },
                end: { line: 3, str: "2020" },
                polarity: "supports" as const,
                confidence: 0.9,
            },
        ],
    };

    it("creates { annotations: [...] } for a missing file", () => {
        const made = ok(appendToAnnotationFile(undefined, "a.sourcecheck.json", annotation));
        assert.equal(made.index, 0);
        assert.deepEqual(JSON.parse(made.text), { annotations: [annotation] });
        assert.ok(made.text.endsWith("\n"));
    });

    it("appends after the existing annotations, keeping every byte before them", () => {
        const text =
            '{\n    // kept\n    "annotations": [\n        { "claim": 1, "sources": [] }\n    ],\n    "note": "x"\n}\n';
        const made = ok(appendToAnnotationFile(text, "a.sourcecheck.json", annotation));
        assert.equal(made.index, 1);
        assert.ok(made.text.startsWith('{\n    // kept\n    "annotations": [\n        { "claim": 1, "sources": [] }'));
        const value = parseJsonc(made.text) as { annotations: unknown[]; note: string };
        assert.deepEqual(value.annotations[1], annotation);
        assert.equal(value.note, "x");
        assert.ok(made.text.includes('\n        {\n            "claim": {'), made.text);
        const bare = ok(appendToAnnotationFile("[]", "list.json", annotation));
        assert.deepEqual(JSON.parse(bare.text), [annotation]);
    });

    it("refuses files that are not annotation lists, and embedded sessions", () => {
        const pkg = appendToAnnotationFile('{ "name": "x" }', "package.json", annotation);
        assert.ok(!pkg.ok && /not an annotation file/.test(pkg.message));
        const session = appendToAnnotationFile(
            '{ "documents": [], "annotations": [] }',
            "s.sourcecheck.json",
            annotation,
        );
        assert.ok(!session.ok && /embeds its own documents/.test(session.message));
        const broken = appendToAnnotationFile('{ "annotations": [ }', "b.sourcecheck.json", annotation);
        assert.ok(!broken.ok && /not valid JSON/.test(broken.message));
    });
});

describe("annotate: replacing and removing an annotation by index", () => {
    const ref = (line: number, str: string) => ({ path: "a.md", start: { line, str }, end: { line, str } });
    const annotation = {
        claim: ref(9, "new"),
        sources: [{ ...ref(2, "src"), polarity: "refutes" as const, confidence: 0.5 }],
    };
    const text =
        '{\r\n\t// first\r\n\t"annotations": [\r\n\t\t{ "claim": 1, "sources": [] },\r\n\t\t{ "claim": 2, "sources": [] }, // second\r\n\t\t{ "claim": 3, "sources": [] }\r\n\t]\r\n}\r\n';

    it("replaces annotation N in place, in the file's own layout, every byte around it kept", () => {
        const made = ok(editAnnotationFile(text, "x.sourcecheck.json", { kind: "replace", index: 1 }, annotation));
        assert.equal(made.index, 1);
        const value = parseJsonc(made.text) as { annotations: unknown[] };
        assert.deepEqual(value.annotations, [{ claim: 1, sources: [] }, annotation, { claim: 3, sources: [] }]);
        const at = text.indexOf('{ "claim": 2');
        const end = at + '{ "claim": 2, "sources": [] }'.length;
        assert.ok(made.text.startsWith(text.slice(0, at)), "bytes before kept");
        assert.ok(made.text.endsWith(text.slice(end)), "bytes after kept (the comment too)");
        assert.ok(made.text.includes('{\r\n\t\t\t"claim": '), "tabs and CRLF as in the file");
    });

    it("removes annotation N with its comma; the last one leaves []", () => {
        for (const [index, left] of [
            [0, [2, 3]],
            [1, [1, 3]],
            [2, [1, 2]],
        ] as const) {
            const made = ok(editAnnotationFile(text, "x.sourcecheck.json", { kind: "remove", index }));
            const value = parseJsonc(made.text) as { annotations: { claim: number }[] };
            assert.deepEqual(
                value.annotations.map((a) => a.claim),
                left,
                made.text,
            );
            assert.ok(made.text.startsWith('{\r\n\t// first\r\n\t"annotations": [\r\n'), made.text);
        }
        const one = ok(
            editAnnotationFile('{ "annotations": [ { "claim": 1 } ] }', "x.sourcecheck.json", {
                kind: "remove",
                index: 0,
            }),
        );
        assert.equal(one.text, '{ "annotations": [] }');
    });

    it("refuses an index the file does not hold, saying how many it has; and what append refuses", () => {
        for (const edit of [
            { kind: "remove", index: 3 },
            { kind: "replace", index: -1 },
        ] as const) {
            const refused = editAnnotationFile(text, "x.sourcecheck.json", edit, annotation);
            assert.ok(!refused.ok);
            assert.equal((refused as { count?: number }).count, 3);
            assert.match(refused.message, /has no annotation at index .* \(it has 3, at indexes 0 to 2\)/);
        }
        const none = editAnnotationFile(undefined, "x.sourcecheck.json", { kind: "remove", index: 0 });
        assert.ok(!none.ok && /it has no annotations/.test(none.message));
        const session = editAnnotationFile('{ "documents": [], "annotations": [{}] }', "s.sourcecheck.json", {
            kind: "remove",
            index: 0,
        });
        assert.ok(!session.ok && /embeds its own documents/.test(session.message));
    });
});

describe("ref warnings: mid-word boundaries and self-citation", () => {
    const document = new SessionDocument("a.md", "The catalog of log files; 日本語のテキスト; -37% up\n");
    const span = (text: string) => {
        const at = document.content.indexOf(text);
        return [at, at + text.length] as const;
    };

    it("flags a span cut inside a word, with the whole-word ref, and nothing else", () => {
        const inside = midWordWarning(document, ...span("log of"));
        assert.equal(inside?.boundary, "start");
        assert.equal(inside?.alternative?.text, "catalog of");
        const resolved = resolveRef(buildSession([document]), inside!.alternative!.ref);
        assert.ok(resolved.valid && resolved.text === "catalog of");
        assert.equal(midWordWarning(document, ...span("cat"))?.boundary, "end");
        assert.equal(midWordWarning(document, ...span("atalo"))?.boundary, "both");
        for (const whole of ["catalog", "log files", "37%", "-37%", "本語", "The"]) {
            assert.equal(midWordWarning(document, ...span(whole)), undefined, whole);
        }
    });

    it("self-citation needs the same document and overlapping spans", () => {
        const at = (path: string, startOffset: number, endOffset: number) => ({
            path,
            startOffset,
            endOffset,
            range: { start: { line: 1, column: startOffset }, end: { line: 1, column: endOffset } },
        });
        assert.equal(selfCitationWarning(at("a.md", 0, 10), at("./a.md", 9, 12))?.code, "self-citation");
        assert.equal(selfCitationWarning(at("a.md", 0, 10), at("a.md", 10, 12)), undefined);
        assert.equal(selfCitationWarning(at("a.md", 0, 10), at("b.md", 0, 10)), undefined);
    });
});

describe("cite: messages that say what to do", () => {
    it("normalises ./ and backslashes, refuses paths that leave the root", () => {
        assert.deepEqual(normalizeRefPath("./docs\\a.md"), { ok: true, path: "docs/a.md" });
        assert.deepEqual(normalizeRefPath("docs/./x/../a.md"), { ok: true, path: "docs/a.md" });
        assert.equal((normalizeRefPath("../a.md") as { code: string }).code, "path-outside-root");
        assert.equal((normalizeRefPath("/etc/passwd") as { code: string }).code, "path-outside-root");
        assert.equal((normalizeRefPath("./") as { code: string }).code, "invalid-path");
    });

    it("strips index's line numbers only from lines that carry them", () => {
        assert.equal(withoutLineNumbers(" 66 | first\n 67 | second"), "first\nsecond");
        assert.equal(withoutLineNumbers("no number"), undefined);
        const document = new SessionDocument("d.md", "one\n66 | literally\n");
        // Text that really starts with a number and a bar is cited as it is.
        assert.ok(citeQuote(document, "66 | literally").ok);
    });

    it("names the differing words of a near match", () => {
        assert.match(
            wordDifferences("grew 45% in 2020", "grew 42% in 2020"),
            /"45%" \(your quote\) vs "42%" \(the document\)/,
        );
        assert.match(wordDifferences("grew fast in 2020", "grew in 2020"), /"fast" \(only in your quote\)/);
    });

    it("names the edge that repeats and the shortest quote that works", () => {
        const document = new SessionDocument("d.md", "x ab ab ab\nend\n");
        const result = citeQuote(document, "ab ab\nend");
        assert.ok(!result.ok);
        assert.equal(result.error.code, "quote-ambiguous");
        assert.match(result.error.message, /its start \("ab ab"\) repeats on line 1/);
        assert.match(result.error.message, /adds "ab " before it: "ab ab ab\\nend"/);
        const fixed = citeQuote(document, "ab ab ab\nend");
        assert.ok(fixed.ok);
    });

    it("says when a cited quote starts inside a word, with the whole-word ref", () => {
        const document = new SessionDocument("d.md", "The catalog of column families.\n");
        const result = ok(citeQuote(document, "talog of column families"));
        assert.equal(result.warnings?.[0].code, "mid-word-boundary");
        assert.deepEqual(result.warnings?.[0].alternative?.ref, {
            path: "d.md",
            start: { line: 1, str: "catalog" },
            end: { line: 1, str: "families" },
        });
        assert.equal(ok(citeQuote(document, "catalog of column")).warnings, undefined);
    });
});

describe("sourcecheck annotate", () => {
    let dir: string;
    const file = () => path.join(dir, "answer.sourcecheck.json");
    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-annotate-"));
        fs.writeFileSync(path.join(dir, "answer.md"), answerText);
        fs.mkdirSync(path.join(dir, "docs"));
        fs.writeFileSync(path.join(dir, "docs/report.md"), sourceText);
    });
    const claim = ["--claim", "answer.md", "Growth was 45% in 2020."];
    const source = ["--source", "supports", "0.9", "docs/report.md", "growth was 45% in 2020"];

    it("prints the annotation and writes nothing without --write; with --write appends it (exit 0)", () => {
        const dry = runCli(["annotate", "answer.sourcecheck.json", ...claim, ...source, "--json"], { cwd: dir });
        assert.equal(dry.status, 0, dry.stderr);
        const json = JSON.parse(dry.stdout);
        assert.equal(json.annotation, 1, "numbered from 1, no index");
        assert.equal("index" in json, false);
        assert.equal(json.written, false);
        assert.ok(!fs.existsSync(file()));
        const wrote = runCli(["annotate", "answer.sourcecheck.json", ...claim, ...source, "--write"], { cwd: dir });
        assert.equal(wrote.status, 0, wrote.stderr);
        assert.match(wrote.stdout, /^wrote annotation 1 to answer\.sourcecheck\.json\n/);
        assert.deepEqual(JSON.parse(fs.readFileSync(file(), "utf8")).annotations, [json.cited]);
        const written = fs.readFileSync(file(), "utf8");
        // A retry of the same call finds its annotation present: reported, not appended.
        const again = runCli(["annotate", "answer.sourcecheck.json", "--write", "--json", ...claim, ...source], {
            cwd: dir,
        });
        assert.deepEqual(
            [JSON.parse(again.stdout).annotation, JSON.parse(again.stdout).present, JSON.parse(again.stdout).written],
            [1, true, false],
        );
        assert.equal(fs.readFileSync(file(), "utf8"), written, "a retry leaves the file as it is");
        const retried = runCli(["annotate", "answer.sourcecheck.json", "--write", ...claim, ...source], { cwd: dir });
        assert.match(retried.stdout, /^annotation 1 of answer\.sourcecheck\.json is already present/);
        const check = runCli(["check", "answer.sourcecheck.json"], { cwd: dir });
        assert.equal(check.status, 0, check.stdout + check.stderr);
    });

    it("--replace N and --remove N (counted from 1) change the file only with --write", () => {
        const other = ["--claim", "answer.md", "The catalog lists column families."];
        const otherSource = ["--source", "supports", "0.5", "docs/report.md", "A catalog of column families is kept."];
        assert.equal(
            runCli(["annotate", "answer.sourcecheck.json", "--write", ...claim, ...source], { cwd: dir }).status,
            0,
        );
        assert.equal(
            runCli(["annotate", "answer.sourcecheck.json", "--write", ...other, ...otherSource], { cwd: dir }).status,
            0,
        );
        const before = fs.readFileSync(file(), "utf8");
        // Annotation 1 claims other text: refused (replace-mismatch, exit 1) unless --force.
        const refused = runCli(["annotate", "answer.sourcecheck.json", "--replace", "1", ...other, ...otherSource], {
            cwd: dir,
        });
        assert.equal(refused.status, 1);
        assert.match(refused.stderr, /replace-mismatch: annotation 1 of answer\.sourcecheck\.json claims "/);
        const dry = runCli(
            ["annotate", "answer.sourcecheck.json", "--replace", "1", "--force", ...other, ...otherSource],
            { cwd: dir },
        );
        assert.equal(dry.status, 0, dry.stderr);
        assert.match(dry.stdout, /^annotation 1 of answer\.sourcecheck\.json would be replaced, not written/);
        assert.equal(fs.readFileSync(file(), "utf8"), before);
        const replaced = runCli(
            [
                "annotate",
                "answer.sourcecheck.json",
                "--replace",
                "1",
                "--force",
                "--write",
                "--json",
                ...other,
                ...otherSource,
            ],
            { cwd: dir },
        );
        assert.equal(replaced.status, 0, replaced.stderr);
        const json = JSON.parse(replaced.stdout);
        assert.equal(json.annotation, 1);
        assert.equal(json.replaced, true);
        const annotations = JSON.parse(fs.readFileSync(file(), "utf8")).annotations;
        assert.equal(annotations.length, 2);
        assert.deepEqual(annotations[0], json.cited);
        assert.deepEqual(annotations[1], json.cited);

        const removeDry = runCli(["annotate", "answer.sourcecheck.json", "--remove", "2"], { cwd: dir });
        assert.equal(removeDry.status, 0, removeDry.stderr);
        assert.equal(JSON.parse(fs.readFileSync(file(), "utf8")).annotations.length, 2);
        const removed = runCli(["annotate", "answer.sourcecheck.json", "--remove", "2", "--write"], { cwd: dir });
        assert.equal(removed.status, 0, removed.stderr);
        assert.equal(removed.stdout, "removed annotation 2 from answer.sourcecheck.json\n");
        assert.equal(JSON.parse(fs.readFileSync(file(), "utf8")).annotations.length, 1);
        assert.equal(runCli(["check", "answer.sourcecheck.json"], { cwd: dir }).status, 0);

        const missing = runCli(["annotate", "answer.sourcecheck.json", "--remove", "5", "--write"], { cwd: dir });
        assert.equal(missing.status, 2);
        assert.match(missing.stderr, /has no annotation 5 \(it has 1, numbered 1 to 1\)/);
        for (const bad of [
            ["--remove", "0"],
            ["--remove", "x"],
            ["--remove", "1", ...claim],
        ]) {
            const run = runCli(["annotate", "answer.sourcecheck.json", ...bad], { cwd: dir });
            assert.equal(run.status, 2, bad.join(" "));
        }
    });

    it("--json names a warned ref by role word and source from 1, never a 0-based role", () => {
        const midWordSource = ["--source", "supports", "0.9", "docs/report.md", "rowth was 45% in 2020"];
        const run = runCli(["annotate", "--json", "answer.sourcecheck.json", ...claim, ...midWordSource], {
            cwd: dir,
        });
        assert.equal(run.status, 0, run.stderr);
        const warnings = JSON.parse(run.stdout).warnings;
        assert.equal(warnings.length, 1);
        assert.equal(warnings[0].code, "mid-word-boundary");
        assert.equal(warnings[0].role, "source");
        assert.equal(warnings[0].source, 1);
    });

    it("reads the request as JSON from stdin", () => {
        const request = {
            claim: { path: "answer.md", quote: "Growth was 45% in 2020." },
            sources: [
                { path: "docs/report.md", quote: "growth was 45% in 2020", polarity: "refutes", confidence: 0.2 },
            ],
        };
        const run = runCli(["annotate", "--write", "answer.sourcecheck.json", "-"], {
            cwd: dir,
            stdin: JSON.stringify(request),
        });
        assert.equal(run.status, 0, run.stderr);
        assert.equal(JSON.parse(fs.readFileSync(file(), "utf8")).annotations[0].sources[0].polarity, "refutes");
    });

    it("exit 1 and nothing written when a quote cannot be cited or a source cites its claim; 2 on bad input", () => {
        const missing = runCli(
            [
                "annotate",
                "--write",
                "--json",
                "answer.sourcecheck.json",
                ...claim,
                "--source",
                "supports",
                "1",
                "docs/report.md",
                "growth was 42% in 2020",
            ],
            { cwd: dir },
        );
        assert.equal(missing.status, 1);
        const error = JSON.parse(missing.stdout).error;
        assert.equal(error.code, "quote-not-found");
        assert.equal(error.pointer, "/sources/0");
        // Numbers as every output counts them (docs/contract.md): the role a word, the source from 1.
        assert.equal(error.role, "source");
        assert.equal(error.source, 1);
        const candidates = JSON.parse(missing.stdout).candidates ?? [];
        assert.deepEqual(
            error.next,
            candidates.length > 0
                ? {
                      action: "choose-candidate",
                      path: "docs/report.md",
                      line: candidates[0].ref.start.line,
                      candidates: candidates.length,
                  }
                : { action: "cite-again", path: "docs/report.md" },
        );
        assert.ok(!fs.existsSync(file()));
        const self = runCli(
            [
                "annotate",
                "--write",
                "answer.sourcecheck.json",
                ...claim,
                "--source",
                "supports",
                "1",
                "answer.md",
                "45%",
            ],
            {
                cwd: dir,
            },
        );
        assert.equal(self.status, 1);
        assert.match(self.stderr, /self-citation/);
        assert.ok(!fs.existsSync(file()));
        assert.equal(runCli(["annotate", "answer.sourcecheck.json", ...claim], { cwd: dir }).status, 2);
        assert.equal(
            runCli(["annotate", "answer.sourcecheck.json", ...claim, "--source", "maybe", "1", "a", "b"], { cwd: dir })
                .status,
            2,
        );
        assert.equal(
            runCli(["annotate", "answer.sourcecheck.json", ...claim, "--source", "supports", "1", "nope.md", "b"], {
                cwd: dir,
            }).status,
            2,
        );
        assert.equal(runCli(["annotate", "README.md", ...claim, ...source], { cwd: dir }).status, 2);
        assert.ok(!fs.existsSync(file()));
    });
});

describe("check: self-citation and mid-word boundaries on refs that resolve", () => {
    const claim = { path: "answer.md", start: { line: 3, str: "Growth" }, end: { line: 3, str: "2020." } };
    const selfSource = { ...claim, start: { line: 3, str: "45%" }, polarity: "supports", confidence: 1 };
    const midWord = {
        path: "docs/report.md",
        start: { line: 4, str: "talog" },
        end: { line: 4, str: "families" },
        polarity: "supports",
        confidence: 1,
    };

    it("warns of a source overlapping its claim, notes a span cut inside a word, and stays valid", () => {
        const result = checkInput({ annotations: [{ claim, sources: [selfSource, midWord] }] }, session);
        assert.equal(result.report.exitCode, 0);
        assert.equal(result.report.validCount, 1);
        const sources = result.report.entries[0].sources as { warnings?: { code: string; severity: string }[] }[];
        assert.deepEqual(
            sources.map((s) => s.warnings?.map((w) => [w.code, w.severity])),
            [[["self-citation", "warning"]], [["mid-word-boundary", "information"]]],
        );
        const codes = result.problems.map((p) => [p.code, p.severity, p.pointer]);
        assert.deepEqual(codes, [
            ["self-citation", "warning", "/annotations/0/sources/0"],
            ["mid-word-boundary", "information", "/annotations/0/sources/1"],
        ]);
        assert.equal(
            (result.report.entries[0].claim as { warnings?: unknown }).warnings,
            undefined,
            "a whole-word claim has none",
        );
    });

    it("in the CLI: the --json report's per-ref warnings list, and a line of text per warning", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-warnings-"));
        fs.writeFileSync(path.join(dir, "answer.md"), answerText);
        fs.mkdirSync(path.join(dir, "docs"));
        fs.writeFileSync(path.join(dir, "docs/report.md"), sourceText);
        fs.writeFileSync(
            path.join(dir, "a.sourcecheck.json"),
            JSON.stringify({ annotations: [{ claim, sources: [selfSource, midWord] }] }, null, 2),
        );
        const json = runCli(["check", "--json", "a.sourcecheck.json"], { cwd: dir });
        assert.equal(json.status, 0, json.stdout);
        const report = JSON.parse(json.stdout);
        assert.equal(report.entries[0].sources[0].warnings[0].code, "self-citation");
        assert.equal(report.entries[0].sources[1].warnings[0].alternative.text, "catalog of column families");
        const text = runCli(["check", "a.sourcecheck.json"], { cwd: dir });
        assert.equal(text.status, 0);
        assert.match(text.stdout, /a\.sourcecheck\.json:\d+:\d+: self-citation: /);
        assert.match(text.stdout, /a\.sourcecheck\.json:\d+:\d+: mid-word-boundary: /);
    });
});
