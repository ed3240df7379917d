// `sourcecheck import` (docs/import.md): importing an Anthropic response of 1,000 `char_location`
// citations over 200 documents (the request carries their texts and titles) against `sourcecheck
// check` of the annotation file it wrote (target <= 2x), both as whole processes (`node
// bin/sourcecheck.js`), alternated in one run (measure.mjs).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sideBySide } from "./measure.mjs";

const bin = join(dirname(dirname(fileURLToPath(import.meta.url))), "bin", "sourcecheck.js");

const WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega river stone cloud ember".split(" ");

/** A sentence no other sentence of the corpus repeats (its numbers are its own). */
function sentence(doc, line, random) {
    const words = Array.from({ length: 8 }, () => WORDS[Math.floor(random() * WORDS.length)]);
    return `Item ${doc}-${line} reports ${words.join(" ")} at ${doc * 1000 + line} units.`;
}

function seeded(seed) {
    let state = seed >>> 0;
    return () => {
        state = (state * 1664525 + 1013904223) >>> 0;
        return state / 2 ** 32;
    };
}

/** The workspace, the response and the request: `documents` files, `citations` cited sentences. */
export function importWorkload(dir, { documents, citations, seed = 42 }) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, "docs"), { recursive: true });
    const random = seeded(seed);
    const texts = [];
    for (let doc = 0; doc < documents; doc++) {
        const lines = Array.from({ length: 40 }, (_, line) => sentence(doc, line + 1, random));
        const text = `# Document ${doc}\n\n${lines.join("\n")}\n`;
        texts.push(text);
        writeFileSync(join(dir, "docs", `doc-${doc}.md`), text);
    }
    const content = [];
    for (let i = 0; i < citations; i++) {
        const doc = Math.floor(random() * documents);
        const line = 1 + Math.floor(random() * 40);
        const text = texts[doc].split("\n")[line + 1]; // its line `line` (after the heading and a blank line)
        const start = texts[doc].indexOf(text);
        content.push({
            type: "text",
            // Paragraphs of five cited sentences, as an answer is written (a 1,000-claim single line is slower:
            // each claim's boundaries are made unique within its line).
            text: `Claim ${i + 1} says item ${doc}-${line} holds.${i % 5 === 4 ? "\n\n" : " "}`,
            citations: [
                {
                    type: "char_location",
                    cited_text: text,
                    document_index: doc,
                    document_title: `doc-${doc}.md`,
                    start_char_index: start,
                    end_char_index: start + text.length,
                },
            ],
        });
    }
    const response = {
        id: "msg_bench",
        type: "message",
        role: "assistant",
        model: "claude-bench",
        content,
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
    };
    const request = {
        model: "claude-bench",
        max_tokens: 1024,
        messages: [
            {
                role: "user",
                content: [
                    ...texts.map((text, doc) => ({
                        type: "document",
                        source: { type: "text", media_type: "text/plain", data: text },
                        title: `doc-${doc}.md`,
                        citations: { enabled: true },
                    })),
                    { type: "text", text: "Answer with citations." },
                ],
            },
        ],
    };
    mkdirSync(join(dir, "answers"), { recursive: true });
    writeFileSync(join(dir, "answers", "response.json"), JSON.stringify(response));
    writeFileSync(join(dir, "answers", "request.json"), JSON.stringify(request));
    return { dir, annotationFile: "answers/response.sourcecheck.json" };
}

function sourcecheck(args, cwd, expected) {
    const run = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8" });
    if (run.status !== expected) throw new Error(`${args.join(" ")} exited ${run.status}: ${run.stderr || run.stdout}`);
    return run;
}

export async function importCases({ scratch, smoke, record }) {
    const citations = smoke ? 50 : 1_000;
    const documents = smoke ? 10 : 200;
    const { dir, annotationFile } = importWorkload(join(scratch, "import"), { documents, citations });
    const importArgs = ["import", "answers/response.json", "--request", "answers/request.json", "--json"];
    const first = JSON.parse(sourcecheck(importArgs, dir, 0).stdout);
    if (first.converted !== citations) throw new Error(`import converted ${first.converted} of ${citations}`);
    const measured = await sideBySide(
        () => sourcecheck(importArgs, dir, 0),
        () => sourcecheck(["check", annotationFile], dir, 0),
        { runs: smoke ? 1 : 7, warmup: 1 },
    );
    record(
        `import of ${citations} citations over ${documents} documents vs check of the result, whole processes`,
        { ratio: measured.ours.median / measured.baseline.median },
        smoke ? undefined : 2,
        { ours: measured.ours, baseline: measured.baseline, baselineName: "sourcecheck check of the imported file" },
    );
}
