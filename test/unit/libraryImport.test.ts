/**
 * The library's `importCitations(workspace, options)` (docs/library.md) returns the very object
 * `sourcecheck import --json` prints for the same files on disk, and writes the same answer and
 * annotation file: through the Node workspace and the memory workspace, for each provider's fixture.
 * Bad input rejects with the command's error code and writes nothing.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createMemoryWorkspace, createNodeWorkspace, ImportError, importCitations } from "../../server/src/index";
import { runCliAsync } from "./cliRun";
import {
    anthropicAnswer,
    anthropicRequest,
    anthropicResponse,
    cohereResponse,
    FILES,
    geminiResponse,
    openAiResponse,
} from "./importFixtures";

function tree(files: Record<string, string>): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-library-import-")));
    for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
}

function read(dir: string, name: string): string {
    return fs.readFileSync(path.join(dir, name), "utf8");
}

const WITH_RESPONSES: Record<string, string> = {
    ...FILES,
    "answers/claude.json": JSON.stringify(anthropicResponse, null, 2),
    "answers/request.json": JSON.stringify(anthropicRequest, null, 2),
    "answers/openai.json": JSON.stringify(openAiResponse),
    "answers/gemini.json": JSON.stringify(geminiResponse),
    "answers/cohere.json": JSON.stringify(cohereResponse),
};

interface Case {
    name: string;
    args: string[];
    options: Parameters<typeof importCitations>[1];
    answer: string;
    output: string;
}

const CASES: Case[] = [
    {
        name: "anthropic with its request",
        args: ["answers/claude.json", "--request", "answers/request.json"],
        options: { response: "answers/claude.json", request: "answers/request.json" },
        answer: "answers/claude.md",
        output: "answers/claude.sourcecheck.json",
    },
    {
        name: "openai, answer and output named",
        args: ["answers/openai.json", "--answer", "out/openai.md", "-o", "out/o.sourcecheck.json"],
        options: { response: "answers/openai.json", answer: "out/openai.md", output: "out/o.sourcecheck.json" },
        answer: "out/openai.md",
        output: "out/o.sourcecheck.json",
    },
    {
        name: "gemini",
        args: ["answers/gemini.json"],
        options: { response: "answers/gemini.json" },
        answer: "answers/gemini.md",
        output: "answers/gemini.sourcecheck.json",
    },
    {
        name: "cohere, a document named",
        args: ["answers/cohere.json", "--document", "faq=kb/faq.md"],
        options: { response: "answers/cohere.json", documents: { faq: "kb/faq.md" } },
        answer: "answers/cohere.md",
        output: "answers/cohere.sourcecheck.json",
    },
];

describe("library: importCitations", () => {
    for (const c of CASES) {
        it(`equals import --json and writes the same files: ${c.name}`, async () => {
            const cliDir = tree(WITH_RESPONSES);
            fs.mkdirSync(path.join(cliDir, "out"), { recursive: true });
            const run = await runCliAsync(["import", ...c.args, "--json"], { cwd: cliDir });
            assert.ok(run.status === 0 || run.status === 1, run.stdout + run.stderr);
            const expected = JSON.parse(run.stdout);
            assert.ok(expected.converted > 0, run.stdout);

            const nodeDir = tree(WITH_RESPONSES);
            fs.mkdirSync(path.join(nodeDir, "out"), { recursive: true });
            assert.deepEqual(await importCitations(createNodeWorkspace(nodeDir), c.options), expected);

            const memory = createMemoryWorkspace(WITH_RESPONSES);
            assert.deepEqual(await importCitations(memory, c.options), expected);

            for (const name of [c.answer, c.output]) {
                assert.equal(read(nodeDir, name), read(cliDir, name), name);
                assert.equal(memory.files()[name], read(cliDir, name), name);
            }
        });
    }

    it("takes the response inline (a value) with answer, and write: false writes nothing", async () => {
        const memory = createMemoryWorkspace(FILES);
        const dry = await importCitations(memory, {
            response: anthropicResponse,
            request: anthropicRequest,
            answer: "a.md",
            write: false,
        });
        assert.equal(dry.annotationFile, "a.sourcecheck.json");
        assert.equal(dry.converted, 5);
        assert.deepEqual(Object.keys(memory.files()).sort(), Object.keys(FILES).sort());
        const done = await importCitations(memory, {
            response: JSON.stringify(anthropicResponse),
            request: anthropicRequest,
            answer: "a.md",
        });
        assert.deepEqual(done, dry);
        assert.equal(memory.files()["a.md"], anthropicAnswer);
        assert.equal(JSON.parse(memory.files()["a.sourcecheck.json"]).annotations.length, 5);
    });

    it("rejects bad input with the command's code and writes nothing", async () => {
        const memory = createMemoryWorkspace({ ...FILES, "bad.json": "{ not json", "odd.json": '{"hello":1}' });
        const before = memory.files();
        const codeOf = async (options: Parameters<typeof importCitations>[1]) => {
            try {
                await importCitations(memory, options);
            } catch (error) {
                assert.ok(error instanceof ImportError);
                assert.equal(error.exitCode, 2);
                return error.code;
            }
            assert.fail("no rejection");
        };
        assert.equal(await codeOf({ response: "bad.json" }), "invalid-response");
        assert.equal(await codeOf({ response: "odd.json" }), "unknown-provider");
        assert.equal(await codeOf({ response: anthropicResponse }), "invalid-arguments");
        assert.equal(await codeOf({ response: "../outside.json" }), "invalid-arguments");
        assert.equal(await codeOf({ response: "missing.json" }), "unreadable-document");
        assert.deepEqual(memory.files(), before);
    });
});
