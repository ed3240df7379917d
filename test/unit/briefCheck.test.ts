/**
 * The brief check of a whole answer (docs/agents.md, "Brief check"; issue 33 item 3): status, verdict
 * counts and coverage in at most 400 characters when everything passes; drift listed first with the
 * words that changed, never hidden behind "… and N more", and about 1,500 characters when failing;
 * `locked: true` makes drift fail. The oracle is the workspace the test writes: it knows which
 * sentences it left unannotated, which polarities it gave and which words it changed.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FAILING_BUDGET } from "../../server/src/agentTools/briefCheck";
import { runTool, type ToolOutcome } from "../../server/src/agentTools/tools";
import { wordDiffLine } from "../../server/src/core/lock/wordDiff";
import { diskToolContext } from "../../server/src/mcp/diskContext";

const CLAIMS = 26;
const DOCUMENTS = 6;
/** Answer lines (1-based) no annotation cites: the heading and two sentences. */
const UNCOVERED = [1, 9, 20];

/** Claim i (from 1) of the answer, the fact of source document i % DOCUMENTS. */
const fact = (i: number) => `gauge ${i} reads ${i * 7} units after calibration`;

interface Workspace {
    root: string;
    run(name: string, args: object): Promise<ToolOutcome & { ok: true }>;
}

function workspace(): Workspace {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sc-brief-")));
    const lines = ["# Gauges"];
    for (let i = 1, line = 2; i <= CLAIMS; line++) {
        if (UNCOVERED.includes(line)) lines.push(`Sentence ${line} is said without a source.`);
        else {
            lines.push(`We saw that ${fact(i)}.`);
            i++;
        }
    }
    fs.writeFileSync(path.join(root, "answer.md"), `${lines.join("\n")}\n`);
    fs.mkdirSync(path.join(root, "sources"));
    for (let d = 0; d < DOCUMENTS; d++) {
        const facts = Array.from({ length: CLAIMS }, (_, k) => k + 1).filter((i) => i % DOCUMENTS === d);
        const text = facts.map((i) => `Our log says ${fact(i)}.`).join("\n\n");
        fs.writeFileSync(path.join(root, "sources", `log-${d}.md`), `# Log ${d}\n\n${text}\n`);
    }
    const context = diskToolContext(root, { indexDir: fs.mkdtempSync(path.join(os.tmpdir(), "sc-brief-index-")) });
    return {
        root,
        async run(name, args) {
            const outcome = await runTool(name, args, context);
            assert.ok(outcome.ok, JSON.stringify(outcome));
            return outcome as ToolOutcome & { ok: true };
        },
    };
}

/** Claims 1..CLAIMS: claim 5 refuted, claim 6 contested, the rest supported. */
function annotations() {
    return Array.from({ length: CLAIMS }, (_, k) => k + 1).map((i) => {
        const source = (polarity: string) => ({
            path: `sources/log-${i % DOCUMENTS}.md`,
            quote: `Our log says ${fact(i)}.`,
            polarity,
            confidence: 0.8,
        });
        const sources =
            i === 5 ? [source("refutes")] : i === 6 ? [source("supports"), source("refutes")] : [source("supports")];
        return { claim: { path: "answer.md", quote: `We saw that ${fact(i)}.` }, sources };
    });
}

const FILE = "answer.sourcecheck.json";

describe("the brief check of a whole answer", () => {
    it("passing: status, verdict counts and coverage by line in at most 400 characters", async () => {
        const ws = workspace();
        await ws.run("annotate", { file: FILE, annotations: annotations(), write: true });
        const check = await ws.run("check", { file: FILE });
        const text = check.text;
        assert.ok(text.length <= 400, `${text.length} characters:\n${text}`);
        if (process.env.SHOW_BRIEF) console.log(text);
        const lines = text.split("\n");
        assert.equal(lines[0], `${FILE}: 26 annotations, 53 refs: all refs resolve (exit 0).`);
        assert.equal(lines[1], "verdicts: 24 supported, 1 refuted, 1 contested.");
        const total = CLAIMS + UNCOVERED.length;
        assert.equal(
            lines[2],
            `coverage: "answer.md": ${UNCOVERED.length} of ${total} sentences no claim covers, lines ${UNCOVERED.join(", ")}.`,
        );
        assert.equal(lines.length, 3, text);
        // Coverage follows the claims: annotating line 9 takes it off the list.
        await ws.run("annotate", {
            file: FILE,
            claim: { path: "answer.md", quote: "Sentence 9 is said without a source." },
            sources: [
                { path: "sources/log-1.md", quote: `Our log says ${fact(1)}.`, polarity: "supports", confidence: 0.1 },
            ],
            write: true,
        });
        const again = (await ws.run("check", { file: FILE })).text;
        assert.match(again, /coverage: "answer\.md": 2 of 29 sentences no claim covers, lines 1, 20\./);
        assert.match(again, /verdicts: 25 supported, 1 refuted, 1 contested\./);
    });

    it("drift: every changed ref listed before '… and N more', its changed words shown; locked: true fails", async () => {
        const ws = workspace();
        await ws.run("annotate", { file: FILE, annotations: annotations(), write: true });
        const locked = await ws.run("lock", { file: FILE, write: true });
        assert.equal((locked.structured as { written: boolean }).written, true);
        // Change two cited sentences in place (other words, same boundaries), and break many refs by
        // renaming a source document: far more failing refs than the text has room for.
        const log3 = path.join(ws.root, "sources", "log-3.md");
        fs.writeFileSync(
            log3,
            fs.readFileSync(log3, "utf8").replace("gauge 3 reads 21 units", "gauge 3 reads twenty-two units"),
        );
        const log4 = path.join(ws.root, "sources", "log-4.md");
        fs.writeFileSync(log4, fs.readFileSync(log4, "utf8").replace("gauge 4 reads 28", "gauge 4 showed 29"));
        fs.renameSync(path.join(ws.root, "sources", "log-1.md"), path.join(ws.root, "sources", "gone.md"));
        fs.renameSync(path.join(ws.root, "sources", "log-2.md"), path.join(ws.root, "sources", "gone-2.md"));

        const check = await ws.run("check", { file: FILE });
        const text = check.text;
        assert.ok(text.length <= FAILING_BUDGET, `${text.length} characters:\n${text}`);
        if (process.env.SHOW_BRIEF) console.log(text);
        const report = check.structured as { exitCode: number; invalidCount: number };
        assert.equal(report.exitCode, 1);
        const more = text.indexOf("… and ");
        assert.ok(more > 0, `more failing refs than fit:\n${text}`);
        const drift3 = text.indexOf("annotation 3, source 1 (text-changed): ");
        const drift4 = text.indexOf("annotation 4, source 1 (text-changed): ");
        assert.ok(drift3 > 0 && drift3 < more && drift4 > 0 && drift4 < more, text);
        // The words that changed, not an ellipsis over them.
        assert.deepEqual(changedWords(lineOf(text, "annotation 3, source 1 (text-changed)")), {
            removed: ["21"],
            added: ["twenty-two"],
        });
        assert.deepEqual(changedWords(lineOf(text, "annotation 4, source 1 (text-changed)")), {
            removed: ["28", "reads"],
            added: ["29", "showed"],
        });
        assert.match(
            text,
            /to do: if the new text still says what the claim says, call lock with accept: \[3, 4\] and write: true/,
        );
        assert.match(text, /annotation 1, source 1 \(failing\): sources\/log-1\.md:3 "Our log" … 3 "calibration\."/);
        // Claims i with i % 6 of 1 or 2 cite the renamed documents: 10 broken.
        assert.match(text, /^verdicts: 14 supported, 1 refuted, 1 contested, 10 broken\.$/m);

        // Without broken refs: exit 0, but the status says texts changed; locked: true makes it fail.
        fs.renameSync(path.join(ws.root, "sources", "gone.md"), path.join(ws.root, "sources", "log-1.md"));
        fs.renameSync(path.join(ws.root, "sources", "gone-2.md"), path.join(ws.root, "sources", "log-2.md"));
        const warned = await ws.run("check", { file: FILE });
        assert.equal((warned.structured as { exitCode: number }).exitCode, 0);
        assert.match(
            warned.text.split("\n")[0],
            /all refs resolve, but 2 cited texts changed since locked \(exit 0\)\.$/,
        );
        assert.match(warned.text, /annotation 3, source 1 \(text-changed\): /);
        const strict = await ws.run("check", { file: FILE, locked: true });
        assert.equal((strict.structured as { exitCode: number }).exitCode, 1);
        assert.match(strict.text.split("\n")[0], /: 24 valid, 2 invalid \(exit 1\)\.$/);
        assert.deepEqual(changedWords(lineOf(strict.text, "annotation 4, source 1 (text-changed)")).added, [
            "29",
            "showed",
        ]);
        assert.ok(strict.text.length <= FAILING_BUDGET, strict.text);
    });

    it("the text of a failing check stays within its budget however many refs fail", async () => {
        const ws = workspace();
        await ws.run("annotate", { file: FILE, annotations: annotations(), write: true });
        for (let d = 0; d < DOCUMENTS; d++) fs.rmSync(path.join(ws.root, "sources", `log-${d}.md`));
        const text = (await ws.run("check", { file: FILE })).text;
        assert.ok(text.length <= FAILING_BUDGET, `${text.length} characters`);
        assert.match(text, /^verdicts: 0 supported, 0 refuted, 0 contested, 26 broken\.$/m);
        assert.match(text, /… and \d+ more/);
        // The hint is given once, not once per ref.
        assert.equal(text.split("to do: fix the path").length - 1, 1, text);
    });
});

/** The line of `text` that starts with `start`. */
function lineOf(text: string, start: string): string {
    const line = text.split("\n").find((l) => l.startsWith(start));
    assert.ok(line, `no line starts with ${start}:\n${text}`);
    return line;
}

/** The words inside `[-…-]` and `{+…+}` marks of a diff line, sorted. */
function changedWords(line: string): { removed: string[]; added: string[] } {
    const inside = (re: RegExp) =>
        [...line.matchAll(re)]
            .flatMap((m) => m[1].split(" "))
            .filter((w) => w !== "")
            .sort();
    return { removed: inside(/\[-(.*?)-\]/g), added: inside(/\{\+(.*?)\+\}/g) };
}

describe("wordDiffLine: the changed words of a drifted ref on one line", () => {
    it("shows removed and added words with a few words of context, the rest elided", () => {
        const before =
            "Consumer group rebalancing is about 40% faster in 2.4 than in 2.3 on queues with more than 64 partitions.";
        const after =
            "Consumer groups now rebalance about 40% faster in 2.4 than in 2.3 when a queue has more than 64 partitions.";
        const line = wordDiffLine(before, after)!;
        // Oracle: the words of one text that the other lacks.
        const words = (text: string) => text.split(" ");
        const lacking = (a: string, b: string) =>
            words(a)
                .filter((w) => !words(b).includes(w))
                .sort();
        assert.deepEqual(changedWords(line), { removed: lacking(before, after), added: lacking(after, before) });
        assert.match(line, / … /, "the unchanged middle is elided");
        assert.ok(!line.includes("64 partitions."), `the tail after the last change is cut to a few words: ${line}`);
        assert.ok(line.length < before.length + after.length - 60, `shorter than both texts: ${line}`);
    });

    it("escapes control and bidi characters, and keeps the first change whole when cutting", () => {
        assert.equal(wordDiffLine("a\u202eb c", "a\u202eb d"), "a\\u202eb [-c-]{+d+}");
        const long = "word ".repeat(100);
        const cutLine = wordDiffLine(`${long}alpha`, `${long}beta`, 40)!;
        assert.match(cutLine, /\[-alpha-\]\{\+beta\+\}/);
        assert.equal(wordDiffLine("x".repeat(5000), "y"), undefined, "too long to diff");
    });

    it("marks whole words: a number changed inside its punctuation reads as one change", () => {
        assert.equal(
            wordDiffLine("a median SCOP of 2.9 over three winters", "a median SCOP of 3.1% over three winters"),
            "… median SCOP of [-2.9-]{+3.1%+} over three winters",
        );
        assert.equal(wordDiffLine("cost 5 dollars", "cost 50 dollars"), "cost [-5-]{+50+} dollars");
    });
});
