/**
 * Edits cost what changed (docs/architecture.md): the language service re-checks an edited annotation
 * file from what its last check found (core/checkMemo.ts, core/incrementalParse.ts). Over random edit
 * sequences (the annotation file's text, its annotations, the cited documents) the diagnostics it
 * publishes are those of an analysis from scratch, and its problems those of the CLI's check, which
 * keeps no memo.
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { checkInput } from "../../server/src/core/check";
import { CheckMemo } from "../../server/src/core/checkMemo";
import { listExtents, reparseEdited } from "../../server/src/core/incrementalParse";
import { parseJsonText } from "../../server/src/core/parse";
import { type DocumentLookup, noFileMessage, Session, SessionDocument } from "../../server/src/core/session";
import { createLanguageService } from "../../server/src/languageService";
import { checkOperation } from "../../server/src/operations/check";
import { EditedDocument } from "../../server/src/workspace/editedDocument";
import { createMemoryWorkspace } from "../../server/src/workspace/memoryWorkspace";
import { sha256 } from "../../server/src/workspace/sha256";
import { workspaceHost } from "../../server/src/workspace/workspaceHost";

const numRuns = Number(process.env.SOURCECHECK_FC_RUNS ?? 60);
const WORDS = ["alpha", "beta", "gamma", "delta", "beta", "log", "catalog", "x1", "报告", "数据"];
const DOCUMENTS = ["a.md", "b.md"];

type Annotation = { claim: Record<string, unknown>; sources: Record<string, unknown>[] };

/** An editor session: one service over the documents as they were when it began (a memory workspace), the open buffers, and the edits it was sent. */
function editorSession(documents: Map<string, string>) {
    const open = new Map<string, TextDocument>();
    const workspace = createMemoryWorkspace(Object.fromEntries(documents));
    const service = createLanguageService({
        ...workspaceHost(workspace),
        documents: { get: (uri: string) => open.get(uri) },
        logger: { error: (message: string) => assert.fail(message) },
        events: { changed() {}, removed() {}, refsCanFollow() {} },
    });
    service.initialize({ rootUri: `file://${workspace.root}` });
    const uriOf = (name: string) => `file://${workspace.root}/${name}`;
    return {
        service,
        uriOf,
        open(name: string, languageId: string, text: string) {
            // The server's own buffers (workspace/editedDocument.ts), whose text the check reads in
            // pieces: small ones here, so that edits fall across many of them.
            const document = EditedDocument.create(uriOf(name), languageId, 1, text, 48);
            open.set(document.uri, document);
            service.documentOpened(document);
        },
        /** The new text as one ranged change (the part between the common prefix and suffix), as an editor sends it. */
        edit(name: string, text: string) {
            const document = open.get(uriOf(name)) as TextDocument;
            const before = document.getText();
            let start = 0;
            while (start < before.length && start < text.length && before[start] === text[start]) start++;
            let end = 0;
            while (
                end < before.length - start &&
                end < text.length - start &&
                before[before.length - 1 - end] === text[text.length - 1 - end]
            )
                end++;
            const range = { start: document.positionAt(start), end: document.positionAt(before.length - end) };
            const change = { range, text: text.slice(start, text.length - end) };
            const updated = service.applyChanges(document, [change], document.version + 1);
            open.set(updated.uri, updated);
            service.documentEdited(updated);
        },
        diagnostics(name: string) {
            return service.diagnostics(uriOf(name), undefined);
        },
    };
}

/** A ref into a document line: a substring of it (often ambiguous or inside a word), or a string it lacks. */
const refArbitrary = fc.record({
    document: fc.nat(DOCUMENTS.length), // DOCUMENTS.length: a path that names no file
    line: fc.nat(7),
    from: fc.nat(40),
    length: fc.integer({ min: 1, max: 12 }),
    endLine: fc.nat(1),
    missing: fc.boolean(),
});

type RefPick = typeof refArbitrary extends fc.Arbitrary<infer T> ? T : never;

function refOf(pick: RefPick, documents: Map<string, string>): Record<string, unknown> {
    const name = DOCUMENTS[pick.document] ?? "nowhere.md";
    const lines = (documents.get(name) ?? "").split("\n");
    const line = 1 + pick.line;
    const endLine = line + pick.endLine;
    const text = lines[line - 1] ?? "zzz";
    const endText = lines[endLine - 1] ?? "zzz";
    const slice = (of: string) => {
        const from = pick.from % Math.max(1, of.length);
        return of.slice(from, from + pick.length) || "q";
    };
    return {
        path: name,
        start: { line, str: pick.missing ? "not there" : slice(text) },
        end: { line: endLine, str: slice(endText) },
    };
}

const documentArbitrary = fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 7 }), {
    minLength: 2,
    maxLength: 8,
});

const stepArbitrary = fc.oneof(
    fc.record({ kind: fc.constant("ref" as const), at: fc.nat(), source: fc.nat(2), ref: refArbitrary }),
    fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), claim: refArbitrary, source: refArbitrary }),
    fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }),
    fc.record({
        kind: fc.constant("meta" as const),
        at: fc.nat(),
        confidence: fc.double({ min: -0.5, max: 1.5, noNaN: true }),
    }),
    fc.record({
        kind: fc.constant("typo" as const),
        at: fc.nat(),
        char: fc.constantFrom("x", "{", ",", '"', " ", "]"),
    }),
    fc.record({ kind: fc.constant("document" as const), which: fc.nat(1), line: fc.nat(8), words: documentArbitrary }),
);

describe("incremental analysis (fast-check)", () => {
    it("after any sequence of edits the service publishes the diagnostics of a check from scratch", function () {
        this.timeout(240_000);
        let cases = 0;
        let steps = 0;
        let reusedAnnotations = 0;
        let reusedRefs = 0;
        const property = fc.property(
            fc.array(documentArbitrary, { minLength: 2, maxLength: 2 }),
            fc.array(fc.tuple(refArbitrary, refArbitrary), { minLength: 1, maxLength: 8 }),
            fc.array(stepArbitrary, { minLength: 1, maxLength: 10 }),
            (documentWords, initial, edits) => {
                const documents = new Map<string, string>();
                DOCUMENTS.forEach((name, i) => {
                    const text = documentWords[i].map((line) => line.join(" ")).join("\n");
                    documents.set(name, text);
                });
                const annotations: Annotation[] = initial.map(([claim, source]) => ({
                    claim: refOf(claim, documents),
                    sources: [{ ...refOf(source, documents), polarity: "supports", confidence: 0.5 }],
                }));
                const render = () => JSON.stringify({ annotations }, null, 1);
                let text = render();
                const editor = editorSession(documents);
                for (const name of DOCUMENTS) editor.open(name, "markdown", documents.get(name) as string);
                editor.open("answer.sourcecheck.json", "sourcecheck", text);
                editor.diagnostics("answer.sourcecheck.json");
                cases++;
                for (const step of edits) {
                    if (step.kind === "document") {
                        const name = DOCUMENTS[step.which];
                        const lines = (documents.get(name) as string).split("\n");
                        lines.splice(step.line % (lines.length + 1), step.line % 2, step.words[0].join(" "));
                        documents.set(name, lines.join("\n"));
                        editor.edit(name, documents.get(name) as string);
                    } else {
                        text = editedText(step, annotations, documents, text, render);
                        editor.edit("answer.sourcecheck.json", text);
                    }
                    steps++;
                    const incremental = editor.diagnostics("answer.sourcecheck.json");
                    reusedAnnotations += incremental.file?.reused.annotations ?? 0;
                    reusedRefs += incremental.file?.reused.refs ?? 0;
                    // An analysis from scratch: a new service that sees the same texts once.
                    const fresh = editorSession(documents);
                    for (const name of DOCUMENTS) fresh.open(name, "markdown", documents.get(name) as string);
                    fresh.open("answer.sourcecheck.json", "sourcecheck", text);
                    const scratch = fresh.diagnostics("answer.sourcecheck.json");
                    assert.equal(scratch.file?.reused.annotations, 0);
                    assert.deepEqual(items(incremental.report), items(scratch.report));
                    // And the CLI's check of the same text, which keeps no memo at all (the editor lists
                    // problems of the file as a whole first, the CLI in the order found: compared as sets).
                    assert.deepEqual(
                        (incremental.file?.problems ?? []).map(problemKey).sort(),
                        cliProblems(text, documents).map(problemKey).sort(),
                    );
                }
            },
        );
        fc.assert(property, { numRuns, seed: 45 });
        console.log(
            `      ${cases} cases, ${steps} edits compared; ${reusedAnnotations} annotations replayed, ${reusedRefs} refs not resolved again`,
        );
        assert.equal(cases, numRuns);
        assert.ok(steps >= numRuns, `${steps} edits`);
        // The memo was used: without it the comparisons above would prove nothing about it.
        assert.ok(reusedAnnotations > steps, `${reusedAnnotations} annotations replayed`);
    });
});

/** Apply one step to the model and return the annotation file's new text. */
function editedText(
    step: StepValue,
    annotations: Annotation[],
    documents: Map<string, string>,
    text: string,
    render: () => string,
): string {
    const at = annotations.length > 0 ? step.at % annotations.length : 0;
    switch (step.kind) {
        case "ref": {
            const annotation = annotations[at];
            if (!annotation) return render();
            const ref = refOf(step.ref, documents);
            if (step.source === 0) annotation.claim = ref;
            else
                annotation.sources[(step.source - 1) % annotation.sources.length] = {
                    ...ref,
                    polarity: "refutes",
                    confidence: 0.25,
                };
            return render();
        }
        case "insert":
            annotations.splice(step.at % (annotations.length + 1), 0, {
                claim: refOf(step.claim, documents),
                sources: [{ ...refOf(step.source, documents), polarity: "supports", confidence: 1 }],
            });
            return render();
        case "remove":
            annotations.splice(at, 1);
            return render();
        case "meta": {
            const source = annotations[at]?.sources[0];
            if (source) source.confidence = Math.round(step.confidence * 100) / 100;
            return render();
        }
        case "typo": {
            // Raw text: often not JSON any more (the next structured edit writes the model again).
            const offset = step.at % (text.length + 1);
            return text.slice(0, offset) + step.char + text.slice(offset);
        }
    }
}

type StepValue = Exclude<typeof stepArbitrary extends fc.Arbitrary<infer T> ? T : never, { kind: "document" }>;

function items(report: { kind: string; items?: unknown[] }): unknown[] {
    return report.kind === "full" ? (report.items ?? []) : [];
}

function problemKey(problem: { code: string; pointer: string; message: string; severity?: string }): string {
    return `${problem.code} ${problem.pointer} ${problem.severity ?? "error"} ${problem.message}`;
}

/**
 * The problems `sourcecheck check` finds in the text, against the documents as edited; a path that
 * names no file fails as on disk (core/session.ts).
 */
function cliProblems(text: string, texts: Map<string, string>) {
    const documents: DocumentLookup = {
        get(name) {
            const content = texts.get(name);
            if (content === undefined) return { code: "unreadable-document", message: noFileMessage(name) };
            return new SessionDocument(name, content);
        },
    };
    return checkOperation({ text }, { documents, sha256 }).result.problems;
}

describe("check memo", () => {
    const document = new SessionDocument("d.md", "alpha beta gamma\ndelta epsilon zeta\neta theta iota\n");
    const session = new Session([document]);
    const annotation = (line: number, first: string, last: string) => ({
        claim: { path: "d.md", start: { line, str: first }, end: { line, str: last } },
        sources: [
            {
                path: "d.md",
                start: { line: 3, str: "theta" },
                end: { line: 3, str: "iota" },
                polarity: "supports",
                confidence: 1,
            },
        ],
    });
    const text = (list: unknown[]) => JSON.stringify({ annotations: list }, null, 2);

    it("an edit inside one annotation parses and checks that annotation alone", () => {
        const memo = new CheckMemo();
        const list = [annotation(1, "alpha", "beta"), annotation(2, "delta", "zeta"), annotation(1, "beta", "gamma")];
        const first = memo.parse(text(list));
        checkInput(first.value, session, [], { keepEntries: false, memo });
        assert.equal(memo.counts.annotationsReused, 0);
        list[1] = annotation(2, "epsilon", "zeta");
        const second = memo.parse(text(list));
        const result = checkInput(second.value, session, [], { keepEntries: false, memo });
        assert.equal(memo.counts.annotationsReused, 2, "the two annotations the edit did not touch are replayed");
        assert.equal(result.report.validCount, 3);
        // The values are those of a parse of the whole text.
        assert.deepEqual(second.value, JSON.parse(text(list)));
    });

    it("a changed document is resolved again; an unchanged one is not", () => {
        const memo = new CheckMemo();
        const list = [annotation(1, "alpha", "beta")];
        const value = memo.parse(text(list)).value;
        checkInput(value, session, [], { keepEntries: false, memo });
        checkInput(value, session, [], { keepEntries: false, memo });
        assert.equal(memo.counts.annotationsReused, 1);
        const changed = new Session([new SessionDocument("d.md", "alpha beta\ndelta epsilon zeta\neta theta iota\n")]);
        const result = checkInput(value, changed, [], { keepEntries: false, memo });
        assert.equal(memo.counts.annotationsReused, 0, "the document changed: nothing replayed");
        assert.equal(result.report.validCount, 1);
    });

    it("parses whole any edit that is not inside one annotation", () => {
        const before = text([annotation(1, "alpha", "beta"), annotation(2, "delta", "zeta")]);
        const parsed = listExtents(before, JSON.parse(before));
        assert.ok(parsed);
        assert.equal(parsed.starts.length, 2);
        // The comma between the two annotations removed: not one annotation's text any more.
        const comma = before.indexOf("},") + 1;
        assert.equal(reparseEdited(parsed, before.slice(0, comma) + before.slice(comma + 1)), undefined);
        // A key of the root object: outside the list.
        assert.equal(reparseEdited(parsed, before.replace('"annotations"', '"annotationz"')), undefined);
        // Inside one: the other annotation keeps its value object.
        const edited = reparseEdited(parsed, before.replace('"delta"', '"epsilon"'));
        assert.ok(edited);
        assert.equal(edited.list[0], parsed.list[0]);
        assert.deepEqual(edited.value, JSON.parse(before.replace('"delta"', '"epsilon"')));
        assert.deepEqual(parseJsonText(String(edited.text)).value, edited.value);
    });
});
