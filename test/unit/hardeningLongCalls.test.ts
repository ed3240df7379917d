/**
 * Long calls yield (docs/agents.md, "Load"): the MCP server's check, lock and annotate of a file with
 * thousands of annotations over hundreds of documents let the event loop turn between annotations,
 * so a timer ticks and another call is answered in the middle of the run. Turns and answers are
 * counted, never time: a call that held the event loop for its whole run sees no tick at all.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ToolOutcome } from "../../server/src/agentTools/tools";
import { diskToolRunner } from "../../server/src/mcp/diskContext";

const DOCUMENTS = 200;
const ANNOTATIONS = 4_000;
const FILE = "long.sourcecheck.json";

/** DOCUMENTS documents of 40 lines, and an annotation file citing them all, each ref a line of its own. */
function workspace(dir: string): void {
    const line = (d: number, l: number) => `Document ${d} line ${l} states that item ${d * 100 + l} is kept.`;
    for (let d = 0; d < DOCUMENTS; d++) {
        const lines = Array.from({ length: 40 }, (_, l) => line(d, l + 1));
        fs.writeFileSync(path.join(dir, `doc-${d}.md`), `${lines.join("\n")}\n`);
    }
    const ref = (d: number, l: number) => ({
        path: `doc-${d}.md`,
        start: { line: l, str: `Document ${d} line ${l} ` },
        end: { line: l, str: "kept." },
    });
    const annotations = Array.from({ length: ANNOTATIONS }, (_, i) => ({
        claim: ref(i % DOCUMENTS, 1 + (i % 20)),
        sources: [{ ...ref((i + 1) % DOCUMENTS, 21 + (i % 20)), polarity: "supports", confidence: 0.9 }],
    }));
    fs.writeFileSync(path.join(dir, FILE), JSON.stringify({ annotations }));
}

interface Observed {
    outcome: ToolOutcome;
    /** Turns of the event loop a ticker saw while the call ran. */
    ticks: number;
    /** Another call, made on the first turn after the long one started, was answered before it. */
    otherAnsweredFirst: boolean;
}

/** Run `long`, with a ticker and one other call on the side; count what got through meanwhile. */
async function observe(long: () => Promise<ToolOutcome>, other: () => Promise<ToolOutcome>): Promise<Observed> {
    let running = true;
    let ticks = 0;
    const tick = () => {
        if (!running) return;
        ticks++;
        setImmediate(tick);
    };
    setImmediate(tick);
    let otherAnswered = false;
    let otherAnsweredFirst = false;
    const otherCall = new Promise<void>((resolve) =>
        setImmediate(() =>
            other().then((answer) => {
                assert.ok(answer.ok, JSON.stringify(answer));
                otherAnswered = true;
                otherAnsweredFirst = running;
                resolve();
            }),
        ),
    );
    const outcome = await long();
    running = false;
    await otherCall;
    assert.ok(otherAnswered);
    return { outcome, ticks, otherAnsweredFirst };
}

describe("hardening: long calls of the MCP server yield between annotations", function () {
    this.timeout(300_000);
    let dir: string;
    let run: ReturnType<typeof diskToolRunner>;
    before(() => {
        dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-long-")));
        workspace(dir);
        run = diskToolRunner(dir);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const cite = () => run("cite", { path: "doc-7.md", quote: "Document 7 line 3 states" });

    it(`check of ${ANNOTATIONS.toLocaleString("en-US")} annotations over ${DOCUMENTS} documents: ticks and another call get through`, async () => {
        const seen = await observe(() => run("check", { file: FILE }), cite);
        assert.ok(seen.outcome.ok, JSON.stringify(seen.outcome).slice(0, 300));
        assert.equal((seen.outcome.structured as { validCount: number }).validCount, ANNOTATIONS);
        console.log(`      check: ${seen.ticks} turns of the event loop during the call`);
        assert.ok(seen.ticks >= 2, `ticks: ${seen.ticks}`);
        assert.ok(seen.otherAnsweredFirst, "the other call waited for the whole check");
    });

    it("lock of the same file: ticks and another call get through", async () => {
        const seen = await observe(() => run("lock", { file: FILE }), cite);
        assert.ok(seen.outcome.ok, JSON.stringify(seen.outcome).slice(0, 300));
        assert.equal((seen.outcome.structured as { locked: number }).locked, 2 * ANNOTATIONS);
        console.log(`      lock: ${seen.ticks} turns of the event loop during the call`);
        assert.ok(seen.ticks >= 2, `ticks: ${seen.ticks}`);
        assert.ok(seen.otherAnsweredFirst, "the other call waited for the whole lock");
    });

    it("annotate replacing annotation 1 (the file's claims checked first): ticks and another call get through", async () => {
        const quote = (d: number, l: number) => `Document ${d} line ${l} states that item ${d * 100 + l} is kept.`;
        const seen = await observe(
            () =>
                run("annotate", {
                    file: FILE,
                    replace: 1,
                    claim: { path: "doc-0.md", quote: quote(0, 1) },
                    sources: [{ path: "doc-2.md", quote: quote(2, 5), polarity: "supports", confidence: 0.8 }],
                }),
            cite,
        );
        assert.ok(seen.outcome.ok, JSON.stringify(seen.outcome).slice(0, 300));
        console.log(`      annotate: ${seen.ticks} turns of the event loop during the call`);
        assert.ok(seen.ticks >= 2, `ticks: ${seen.ticks}`);
        assert.ok(seen.otherAnsweredFirst, "the other call waited for the whole annotate");
    });
});
