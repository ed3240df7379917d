import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCliAsync } from "./cliRun";
import { anthropicAnswer, anthropicRequest, anthropicResponse, cohereV1Response, FILES } from "./importFixtures";

const cli = (args: string[], cwd: string) => runCliAsync(args, { cwd });

function workspace(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-import-"));
    for (const [file, text] of Object.entries(FILES)) {
        fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
    }
    fs.mkdirSync(path.join(dir, "answers"));
    fs.writeFileSync(path.join(dir, "answers/claude.json"), JSON.stringify(anthropicResponse, null, 2));
    fs.writeFileSync(path.join(dir, "answers/request.json"), JSON.stringify(anthropicRequest, null, 2));
    return dir;
}

describe("sourcecheck import", () => {
    it("writes the answer and an annotation file that check passes, and prints the contract's JSON", async () => {
        const dir = workspace();
        const run = await cli(["import", "answers/claude.json", "--request", "answers/request.json", "--json"], dir);
        assert.equal(run.status, 1, run.stderr);
        assert.deepEqual(JSON.parse(run.stdout), {
            provider: "anthropic",
            answer: "answers/claude.md",
            annotationFile: "answers/claude.sourcecheck.json",
            converted: 5,
            notConverted: [
                {
                    citation: 6,
                    reason: "web-result",
                    message: "it cites a web page (https://news.example/costs), whose text is not in the workspace",
                },
            ],
            ok: false,
            exitCode: 1,
        });
        assert.equal(fs.readFileSync(path.join(dir, "answers/claude.md"), "utf8"), anthropicAnswer);
        const annotations = JSON.parse(fs.readFileSync(path.join(dir, "answers/claude.sourcecheck.json"), "utf8"));
        assert.equal(annotations.annotations.length, 5);
        assert.equal(annotations.annotations[0].claim.path, "answers/claude.md");
        const check = await cli(["check", "--json", "answers/claude.sourcecheck.json"], dir);
        assert.equal(check.status, 0, check.stdout);
        // Run again: the answer file now exists and holds the answer; the same annotations come out.
        const again = await cli(["import", "answers/claude.json", "--request", "answers/request.json"], dir);
        assert.equal(again.status, 1);
        assert.match(again.stdout, /citation 6: web-result/);
        assert.match(again.stdout, /5 of 6 anthropic citations imported/);
        assert.deepEqual(
            JSON.parse(fs.readFileSync(path.join(dir, "answers/claude.sourcecheck.json"), "utf8")),
            annotations,
        );
    });

    it("takes --answer, -o and --document, and --lock writes the lock at once", async () => {
        const dir = workspace();
        fs.writeFileSync(path.join(dir, "cohere.json"), JSON.stringify(cohereV1Response));
        const run = await cli(
            [
                "import",
                "cohere.json",
                "--answer",
                "out/a.md",
                "-o",
                "out/refs.sourcecheck.json",
                "--document",
                "faq=kb/faq.md",
                "--lock",
                "--json",
            ],
            dir,
        );
        assert.equal(run.status, 0, run.stdout + run.stderr);
        const json = JSON.parse(run.stdout);
        assert.equal(json.provider, "cohere");
        assert.equal(json.annotationFile, "out/refs.sourcecheck.json");
        assert.equal(json.converted, 1);
        assert.ok(fs.existsSync(path.join(dir, "out/refs.sourcecheck.lock.json")));
        const annotations = JSON.parse(fs.readFileSync(path.join(dir, "out/refs.sourcecheck.json"), "utf8"));
        assert.equal(annotations.annotations[0].sources[0].path, "kb/faq.md");
        fs.writeFileSync(path.join(dir, "kb/faq.md"), "FAQ\n\nRefunds take 7 business days.\n");
        const check = await cli(["check", "--locked", "out/refs.sourcecheck.json"], dir);
        assert.equal(check.status, 1);
    });

    it("exits 2 and writes nothing for bad input", async () => {
        const dir = workspace();
        fs.writeFileSync(path.join(dir, "bad.json"), "{ not json");
        const bad = await cli(["import", "bad.json"], dir);
        assert.equal(bad.status, 2);
        assert.match(bad.stderr, /invalid-response/);
        fs.writeFileSync(path.join(dir, "odd.json"), JSON.stringify({ hello: "world" }));
        const odd = await cli(["import", "odd.json", "--json"], dir);
        assert.equal(odd.status, 2);
        assert.equal(JSON.parse(odd.stdout).error.code, "unknown-provider");
        fs.writeFileSync(path.join(dir, "answers/claude.md"), "a different answer\n");
        const differs = await cli(["import", "answers/claude.json"], dir);
        assert.equal(differs.status, 2);
        assert.match(differs.stderr, /answer-differs/);
        const from = await cli(["import", "--from", "mistral", "answers/claude.json"], dir);
        assert.equal(from.status, 2);
        for (const name of [
            "bad.md",
            "bad.sourcecheck.json",
            "odd.md",
            "odd.sourcecheck.json",
            "answers/claude.sourcecheck.json",
        ])
            assert.equal(fs.existsSync(path.join(dir, name)), false, name);
        assert.equal(fs.readFileSync(path.join(dir, "answers/claude.md"), "utf8"), "a different answer\n");
    });

    it("is listed by --help", async () => {
        const help = await cli(["import", "--help"], os.tmpdir());
        assert.equal(help.status, 0);
        assert.match(help.stdout, /--document N=PATH\|NAME=PATH/);
    });
});
