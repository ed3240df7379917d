/**
 * The one rule for which files are annotation files (workspace/discovery.ts, docs/config.md "Which
 * files are annotation files"), as every consumer applies it: `check .`, the language server's scan,
 * the evidence corpus of the CLI and of the MCP tool. One table; each consumer runs all of it.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { AnnotationRecognizer, type FileKind } from "../../server/src/workspace/discovery";
import { listCorpus } from "../../server/src/workspace/evidenceStore";
import { nodeProjectConfigs } from "../../server/src/workspace/nodeConfigs";
import { NODE_HOST } from "../../server/src/workspace/nodeHost";
import { FILE_URIS } from "../../server/src/workspace/uris";
import { WorkspaceIndex } from "../../server/src/workspace/workspaceIndex";
import { runCli, runCliAsync } from "./cliRun";

const { pathToUri } = FILE_URIS;

/** With `"annotationFiles": ["citations/*.json"]` in the folder's sourcecheck.config.json. */
const TABLE: { file: string; kind: FileKind; word: string }[] = [
    { file: "citations/answer.json", kind: "annotation", word: "quokka" },
    { file: "Answer.SourceCheck.json", kind: "annotation", word: "narwhal" },
    { file: "deep/down/x.ANNOTATIONS.json", kind: "annotation", word: "axolotl" },
    { file: "old.sourcecheck.lock.json", kind: "lock", word: "pangolin" },
    { file: "citations/old.lock.json", kind: "lock", word: "okapi" },
    { file: "run.notes.md", kind: "notes", word: "tapir" },
    { file: "run.Notes.txt", kind: "notes", word: "dugong" },
    { file: "agent.trace.jsonl", kind: "trace", word: "gharial" },
    { file: "doc.md", kind: "document", word: "saola" },
    { file: "citations/readme.md", kind: "document", word: "kakapo" },
    { file: "other/answer.json", kind: "document", word: "numbat" },
];

function contentOf(kind: FileKind, word: string): string {
    const ref = { path: `gone-${word}.md`, start: { line: 1, str: word }, end: { line: 1, str: word } };
    if (kind === "annotation" || (kind === "document" && word === "numbat"))
        return JSON.stringify([{ claim: ref, sources: [{ ...ref, polarity: "supports", confidence: 0.5 }] }]);
    if (kind === "lock") return JSON.stringify({ version: 1, note: `${word} ${word}` });
    if (kind === "notes") return `claim: the ${word} claim\nquote: the ${word} quote\nurl: https://example.org/\n`;
    if (kind === "trace") return `${JSON.stringify({ type: "note", text: `the ${word} trace` })}\n`;
    return `# Notes\n\nThe ${word} lives here, and only here.\n`;
}

function workspace(): string {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sc-kinds-")));
    fs.writeFileSync(
        path.join(root, "sourcecheck.config.json"),
        JSON.stringify({ annotationFiles: ["citations/*.json"] }),
    );
    for (const row of TABLE) {
        fs.mkdirSync(path.dirname(path.join(root, row.file)), { recursive: true });
        fs.writeFileSync(path.join(root, row.file), contentOf(row.kind, row.word));
    }
    return root;
}

const annotationRows = TABLE.filter((row) => row.kind === "annotation")
    .map((row) => row.file)
    .sort();
const documentRows = TABLE.filter((row) => row.kind === "document").map((row) => row.file);

describe("one rule for annotation files, run by every consumer", () => {
    let root: string;
    let indexDir: string;
    before(() => {
        root = workspace();
        indexDir = fs.mkdtempSync(path.join(os.tmpdir(), "sc-kinds-index-"));
    });

    it("the rule: each file's kind, the configuration's annotationFiles honoured, names in any case", () => {
        const rule = new AnnotationRecognizer([], nodeProjectConfigs());
        for (const row of TABLE) assert.equal(rule.kind(path.join(root, row.file), row.file), row.kind, row.file);
    });

    it("check . checks exactly the annotation files", async () => {
        const run = await runCliAsync(["check", "--json", "."], { cwd: root });
        const checked = (JSON.parse(run.stdout) as { files: { file: string }[] }).files.map((f) => f.file);
        assert.deepEqual(checked.sort(), annotationRows, run.stderr);
    });

    it("the language server: its scan finds exactly the annotation files, and it recognises each by name", async () => {
        const index = new WorkspaceIndex({ get: () => undefined }, NODE_HOST);
        index.folders = [root];
        const scanned = (await index.scan()).map((file) => path.relative(root, file).split(path.sep).join("/"));
        assert.deepEqual(scanned.sort(), annotationRows);
        for (const row of TABLE) {
            const uri = pathToUri(path.join(root, row.file));
            assert.equal(index.isAnnotationFile(uri), row.kind === "annotation", row.file);
        }
    });

    it("the evidence corpus: only documents; annotation, lock, notes and trace files never", () => {
        const corpus = listCorpus(root).map((file) => file.path);
        assert.deepEqual(corpus.sort(), [...documentRows, "sourcecheck.config.json"].sort());
    });

    it("sourcecheck evidence and the MCP evidence tool: a word of a non-document never comes back from it", () => {
        const tool = diskToolContext(root, { indexDir });
        for (const row of TABLE) {
            const run = runCli(["evidence", "--json", "--corpus", ".", "--index-dir", indexDir, "--query", row.word], {
                cwd: root,
            });
            assert.equal(run.status, 0, run.stderr);
            const fromCli = (JSON.parse(run.stdout) as { hits: { path: string }[] }).hits.map((hit) => hit.path);
            const fromMcp = tool.evidence({ query: row.word }).hits.map((hit) => hit.path);
            for (const [front, hits] of [
                ["cli", fromCli],
                ["mcp", fromMcp],
            ] as const) {
                if (row.kind === "document") assert.ok(hits.includes(row.file), `${front}: ${row.file} found`);
                else assert.ok(!hits.includes(row.file), `${front}: ${row.file} (${row.kind}) is never evidence`);
            }
        }
    });
});
