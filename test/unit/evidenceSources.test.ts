/**
 * `sources` in sourcecheck.config.json says which files are evidence sources (docs/evidence.md,
 * "Which files"): the CLI, the agents' tool (MCP, VS Code) and the demo honour it; a file it leaves
 * out is never a hit, and a query says which configuration chose the sources.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { diskToolContext } from "../../server/src/mcp/diskContext";
import { listCorpus } from "../../server/src/workspace/evidenceStore";
import { parseProjectConfig } from "../../server/src/workspace/projectConfig";
import { runCli } from "./cliRun";

const repo = path.resolve(__dirname, "../../..");

/** A workspace where README.md, docs/a.md and notes/n.md all hold the word "quokka". */
function workspace(config: object | undefined): string {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sc-sources-")));
    const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
    };
    write("README.md", "# Read me\n\nThe quokka smiles in this readme.\n");
    write("docs/a.md", "# A\n\nThe quokka lives on Rottnest Island.\n");
    write("notes/n.md", "# N\n\nA quokka note of the author.\n");
    if (config) write("sourcecheck.config.json", JSON.stringify(config));
    return root;
}

interface Answer {
    hits: { path: string }[];
    searched: { documents: number; sources?: string[] };
    message?: string;
}

function cliQuery(root: string, indexDir: string, query: string, corpus = "."): Answer {
    const run = runCli(["evidence", "--json", "--corpus", corpus, "--index-dir", indexDir, "--query", query], {
        cwd: root,
    });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as Answer;
}

const paths = (answer: Answer) => answer.hits.map((hit) => hit.path).sort();

describe("sourcecheck.config.json `sources`: which files are evidence", () => {
    let indexDir: string;
    beforeEach(() => {
        indexDir = fs.mkdtempSync(path.join(os.tmpdir(), "sc-sources-index-"));
    });

    it("the CLI searches only the files `sources` names, and says which configuration chose them", () => {
        const without = cliQuery(workspace(undefined), indexDir, "quokka");
        assert.deepEqual(paths(without), ["README.md", "docs/a.md", "notes/n.md"], "control: every file is a source");
        assert.equal(without.searched.sources, undefined);
        const root = workspace({ sources: ["docs/**", "n.md"] });
        const answer = cliQuery(root, indexDir, "quokka");
        // A glob without `/` matches the file name at any depth, as the other globs of the file do.
        assert.deepEqual(paths(answer), ["docs/a.md", "notes/n.md"]);
        assert.deepEqual(answer.searched.sources, ["sourcecheck.config.json"]);
        assert.equal(answer.searched.documents, 2, "the configuration file itself is no source either");
        const none = cliQuery(root, indexDir, "smiles readme");
        assert.deepEqual(none.hits, []);
        assert.match(none.message!, /only the sources that sourcecheck\.config\.json names/);
    });

    it("the agents' tool honours the setting above its corpus folder, and a nearer configuration wins below", () => {
        const root = workspace({ sources: ["docs/**"] });
        const tool = diskToolContext(root, { indexDir });
        assert.deepEqual(paths(tool.evidence({ query: "quokka" })), ["docs/a.md"]);
        // A corpus folder below the configuration: its `sources` still applies (globs relative to its folder).
        assert.deepEqual(paths(tool.evidence({ query: "quokka", corpus: "notes" })), []);
        assert.deepEqual(paths(tool.evidence({ query: "quokka", corpus: "docs" })), ["docs/a.md"]);
        // notes/ gets its own configuration: it governs the files below it.
        fs.writeFileSync(path.join(root, "notes", "sourcecheck.config.json"), JSON.stringify({ sources: ["*.md"] }));
        const answer = tool.evidence({ query: "quokka" }) as Answer;
        assert.deepEqual(paths(answer), ["docs/a.md", "notes/n.md"]);
        assert.deepEqual(answer.searched.sources, ["notes/sourcecheck.config.json", "sourcecheck.config.json"]);
    });

    it("a changed setting is followed by the next query (the index drops and adds files)", () => {
        const root = workspace({ sources: ["docs/**"] });
        assert.deepEqual(paths(cliQuery(root, indexDir, "quokka")), ["docs/a.md"]);
        fs.writeFileSync(path.join(root, "sourcecheck.config.json"), JSON.stringify({ sources: ["README.md"] }));
        assert.deepEqual(paths(cliQuery(root, indexDir, "quokka")), ["README.md"]);
        fs.rmSync(path.join(root, "sourcecheck.config.json"));
        assert.deepEqual(paths(cliQuery(root, indexDir, "quokka")), ["README.md", "docs/a.md", "notes/n.md"]);
    });

    it("a broken `sources` is reported on its token and narrows to no file rather than to every file", () => {
        const empty = parseProjectConfig("/p/sourcecheck.config.json", '{ "sources": [] }');
        assert.equal(empty.ok, false);
        assert.match(empty.ok ? "" : empty.problem.message, /^sources: list at least one glob/);
        assert.deepEqual(empty.config.sources, []);
        const wrong = parseProjectConfig("/p/sourcecheck.config.json", '{ "sources": "docs/**" }');
        assert.match(wrong.ok ? "" : wrong.problem.message, /^sources: must be an array of glob strings/);
        assert.equal(wrong.ok ? 0 : wrong.problem.column, 14);
        assert.deepEqual(wrong.config.sources, []);
        const good = parseProjectConfig("/p/sourcecheck.config.json", '{ "sources": ["docs/**"] }');
        assert.deepEqual(good.ok && good.config.sources, ["docs/**"]);
        const root = workspace({ sources: 7 });
        assert.deepEqual(
            listCorpus(root).map((f) => f.path),
            [],
        );
    });

    it("the demo names its sources: its README is never evidence, whatever the query", () => {
        const demo = path.join(repo, "examples/demo");
        const config = JSON.parse(fs.readFileSync(path.join(demo, "sourcecheck.config.json"), "utf8"));
        assert.deepEqual(config.sources, ["sources/**"]);
        const corpus = listCorpus(fs.realpathSync(demo)).map((f) => f.path);
        assert.deepEqual(corpus, ["sources/benchmark.txt", "sources/release-notes.md", "sources/survey-zh.md"]);
        // The README's own words (its table names every claim): found before the setting, not now.
        const answer = diskToolContext(demo, { indexDir }).evidence({
            query: "SourceCheck demo workspace what is wrong",
        }) as Answer;
        assert.ok(
            answer.hits.every((hit) => hit.path.startsWith("sources/")),
            JSON.stringify(paths(answer)),
        );
        assert.deepEqual(answer.searched.sources, ["sourcecheck.config.json"]);
    });
});
