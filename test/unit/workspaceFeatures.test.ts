/**
 * The language features against an in-memory workspace (docs/architecture.md): no disk, no server,
 * and every question a feature asks is recorded, so these tests also pin down what each feature
 * reads (a hover must not re-read documents; completion of paths must not read any).
 */
import * as assert from "node:assert/strict";
import type { MarkupContent } from "vscode-languageserver";
import { SessionDocument } from "../../server/src/core/session";
import { completion } from "../../server/src/features/completion";
import { citedSpans, refForSelection } from "../../server/src/features/customRequests";
import type { Citable, Citation, FeatureWorkspace } from "../../server/src/features/featureWorkspace";
import { hover } from "../../server/src/features/hover";
import { documentLinks } from "../../server/src/features/navigation";
import { AnnotationFile } from "../../server/src/workspace/annotationFile";
import { FILE_URIS } from "../../server/src/workspace/uris";

const { pathToUri } = FILE_URIS;

const ROOT = "/memory/root";

/** Documents and annotation files held in memory; `asked` lists every question, in order. */
class InMemoryWorkspace implements FeatureWorkspace {
    readonly asked: string[] = [];
    readonly uris = FILE_URIS;
    settings: { boundaryStyle: "words" | "shortest" } = { boundaryStyle: "words" };
    readonly files: AnnotationFile[] = [];
    /** Reads of documents by the resolver (through the lookup every annotation file gets). */
    readonly documentReads: string[] = [];

    constructor(private readonly documents: Record<string, string>) {}

    /** Check an annotation file against these documents, as the server would on open. */
    add(name: string, value: unknown): AnnotationFile {
        const lookup = {
            get: (path: string) => {
                this.documentReads.push(path);
                const content = this.documents[path];
                return content === undefined ? undefined : new SessionDocument(path, content);
            },
        };
        const file = new AnnotationFile(pathToUri(`${ROOT}/${name}`), 1, JSON.stringify(value, null, 1), ROOT, lookup);
        this.files.push(file);
        return file;
    }

    citationsOf(absolutePath: string): Citation[] {
        this.asked.push(`citationsOf ${absolutePath}`);
        const path = absolutePath.slice(ROOT.length + 1);
        return this.files.flatMap((file) => (file.sitesByPath.get(path) ?? []).map((site) => ({ file, site })));
    }

    citable(uri: string): Citable {
        this.asked.push(`citable ${uri}`);
        const path = decodeURIComponent(new URL(uri).pathname).slice(ROOT.length + 1);
        const content = this.documents[path];
        return content === undefined
            ? { ok: false, message: `no ${path}` }
            : { ok: true, path, document: new SessionDocument(path, content) };
    }

    documentText(uri: string): string | undefined {
        this.asked.push(`documentText ${uri}`);
        const citable = this.citable(uri);
        return citable.ok ? citable.document.content : undefined;
    }

    filesUnder(root: string): string[] {
        this.asked.push(`filesUnder ${root}`);
        return Object.keys(this.documents).sort();
    }

    absoluteOf(_file: AnnotationFile, refPath: string): string | undefined {
        return refPath in this.documents ? `${ROOT}/${refPath}` : undefined;
    }

    uriOf(file: AnnotationFile, refPath: string): string | undefined {
        const absolute = this.absoluteOf(file, refPath);
        return absolute === undefined ? undefined : pathToUri(absolute);
    }
}

const ANSWER = "Orbit 2.4 improves cold-start latency by 37% over 2.3.\nIt ships for Linux.";
const NOTES = "delta: -37%\nWindows support is planned for 2.5.";

function demo(): { workspace: InMemoryWorkspace; file: AnnotationFile } {
    const workspace = new InMemoryWorkspace({ "answer.md": ANSWER, "notes.md": NOTES });
    const file = workspace.add("a.sourcecheck.json", {
        annotations: [
            {
                claim: { path: "answer.md", start: { line: 1, str: "37" }, end: { line: 1, str: "37%" } },
                sources: [
                    {
                        path: "notes.md",
                        start: { line: 1, str: "delta" },
                        end: { line: 1, str: "-37%" },
                        polarity: "supports",
                        confidence: 0.9,
                    },
                ],
            },
            {
                claim: { path: "answer.md", start: { line: 2, str: "It" }, end: { line: 2, str: "Linux." } },
                sources: [
                    {
                        path: "notes.md",
                        start: { line: 2, str: "Windows" },
                        end: { line: 2, str: "planned for 2.6." },
                        polarity: "refutes",
                        confidence: 0.7,
                    },
                ],
            },
        ],
    });
    return { workspace, file };
}

function markdownOf(result: ReturnType<typeof hover>): string {
    assert.ok(result, "expected a hover");
    return (result.contents as MarkupContent).value;
}

/** The LSP position of the n-th occurrence of a needle in the file's text, one character in. */
function inside(file: AnnotationFile, needle: string, nth = 0) {
    let at = -1;
    for (let i = 0; i <= nth; i++) at = file.text.indexOf(needle, at + 1);
    assert.ok(at >= 0, needle);
    const before = file.text.slice(0, at + 1);
    const line = before.split("\n").length - 1;
    return { line, character: before.length - before.lastIndexOf("\n") - 1 };
}

describe("features against an in-memory workspace", () => {
    it("each document is read once, when the annotation file is checked", () => {
        const { workspace } = demo();
        assert.deepEqual([...new Set(workspace.documentReads)].sort(), ["answer.md", "notes.md"]);
    });

    it("hover answers from the checked file: verdict and sources, without asking the workspace for text", () => {
        const { workspace, file } = demo();
        const reads = workspace.documentReads.length;
        const result = hover(workspace, file, inside(file, '"37"'));
        const value = markdownOf(result);
        assert.ok(value.startsWith("**Annotation 1** · supported\n"), value);
        assert.ok(value.includes("**Source 1** · supports · confidence 0.9"), value);
        assert.ok(value.includes("```text\ndelta: -37%\n```"), value);
        assert.equal(workspace.documentReads.length, reads, "no document read again");
        assert.ok(!workspace.asked.some((q) => q.startsWith("documentText") || q.startsWith("citable")));
    });

    it("a broken source's hover shows the line it names, from the file's own lookup", () => {
        const { workspace, file } = demo();
        const value = markdownOf(hover(workspace, file, inside(file, '"planned for 2.6."')));
        assert.ok(value.includes("Line 2 of `notes.md`:\n\n```text\nWindows support is planned for 2.5.\n```"), value);
    });

    it("citedSpans asks for the citations of that one document, and reads it only to place broken refs", () => {
        const { workspace } = demo();
        const answer = citedSpans(workspace, pathToUri(`${ROOT}/answer.md`));
        assert.deepEqual(workspace.asked, [`citationsOf ${ROOT}/answer.md`]);
        assert.deepEqual(
            answer.spans.map((s) => [s.range.start.line, s.citations[0].verdict]),
            [
                [0, "supported"],
                [1, "broken"],
            ],
        );
        assert.deepEqual(answer.brokenRefs, []);
        // A claim's citation lists its annotation's sources from 1, each with polarity, confidence and verdict.
        assert.deepEqual(
            answer.spans.map((s) => s.citations[0].sources),
            [
                [{ source: 1, polarity: "supports", confidence: 0.9, verdict: "supported" }],
                [{ source: 1, polarity: "refutes", confidence: 0.7, verdict: "broken" }],
            ],
        );
        workspace.asked.length = 0;
        const notes = citedSpans(workspace, pathToUri(`${ROOT}/notes.md`));
        assert.deepEqual(workspace.asked, [`citationsOf ${ROOT}/notes.md`, `citable ${pathToUri(`${ROOT}/notes.md`)}`]);
        assert.deepEqual(
            notes.brokenRefs.map((b) => [b.line, b.code, b.annotation, b.role, b.source]),
            [[2, "boundary-not-found", 2, "source", 1]],
        );
    });

    it("refForSelection follows the workspace's boundary style", () => {
        const { workspace } = demo();
        const uri = pathToUri(`${ROOT}/answer.md`);
        const range = { start: { line: 0, character: 41 }, end: { line: 0, character: 44 } };
        const words = refForSelection(workspace, undefined, uri, range);
        assert.deepEqual(words, {
            ok: true,
            ref: { path: "answer.md", start: { line: 1, str: "37" }, end: { line: 1, str: "37%" } },
            characterLevel: false,
        });
        workspace.settings = { boundaryStyle: "shortest" };
        const shortest = refForSelection(workspace, undefined, uri, range);
        assert.deepEqual(shortest, {
            ok: true,
            ref: { path: "answer.md", start: { line: 1, str: "37" }, end: { line: 1, str: "%" } },
            characterLevel: true,
        });
    });

    it("path completion lists the workspace's files without reading any document", () => {
        const { workspace, file } = demo();
        const reads = workspace.documentReads.length;
        const items = completion(workspace, file, inside(file, '"notes.md"'));
        assert.deepEqual(
            items.map((i) => i.label),
            ["answer.md", "notes.md"],
        );
        assert.deepEqual(workspace.asked, [`filesUnder ${ROOT}`]);
        assert.equal(workspace.documentReads.length, reads);
    });

    it("str completion follows the boundary style: word-aligned by default, character level on request", () => {
        const { workspace, file } = demo();
        const at = inside(file, '"37%"');
        assert.deepEqual(
            completion(workspace, file, at).map((i) => i.label),
            // The sentence's end first, then line order (docs/boundaries.md).
            ["2.3.", "37", "37%", "over", "2.3"],
        );
        workspace.settings = { boundaryStyle: "shortest" };
        const shortest = completion(workspace, file, at).map((i) => i.label);
        assert.ok(shortest.includes("%"), shortest.join(" | "));
    });

    it("document links point at the workspace's URIs for each cited path", () => {
        const { workspace, file } = demo();
        const targets = new Set(documentLinks(workspace, file).map((l) => l.target));
        assert.deepEqual([...targets].sort(), [pathToUri(`${ROOT}/answer.md`), pathToUri(`${ROOT}/notes.md`)]);
    });
});
