/**
 * Hostile input over stdio: the demo annotation file cut at every length and mangled by thousands of
 * seeded random edits, each sent as a didChange, each followed by a pull, a hover, a completion and
 * code actions at a random spot. The server must answer everything, stay alive, log no failure, and
 * put every range inside the document it was computed for.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type {
    CodeAction,
    CompletionItem,
    CompletionList,
    DocumentDiagnosticReport,
    Hover,
} from "vscode-languageserver-protocol";
import { positionOf, startClient, type TestClient } from "./harness";
import { assertHealthy, prng, rangeInside, within } from "./hostileHelpers";

const BOUND_MS = 5000;
const RANDOM_EDITS = 2000;
const SEED = 0x5eedc0de;
/** Cases in flight at once: requests are pipelined, never awaited one by one. */
const BATCH = 40;

/** Pieces a hostile edit inserts: JSON structure, digits, escapes (lone surrogates too), non-ASCII. */
const PIECES = [
    '"',
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\\",
    "0",
    "7",
    "-1",
    "1e999",
    "0.5",
    "99999999999999999999",
    " ",
    "\n",
    "\t",
    "\r\n",
    "é",
    "中文",
    "😀",
    "\ud800",
    "\udfff",
    "\\ud800",
    '"\\udc00"',
    "\\u",
    "\\x",
    "\u2028",
    "\u0000",
    "true",
    "null",
    '"line"',
    '"str"',
    '"path"',
    '"claim": ',
    '"sources": []',
    "/*",
    "//",
];

interface Case {
    label: string;
    text: string;
}

function mutate(text: string, random: () => number): string {
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const at = Math.floor(random() * (text.length + 1));
    const op = random();
    if (op < 0.35) return text.slice(0, at) + pick(PIECES) + text.slice(at);
    if (op < 0.6) return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 12));
    if (op < 0.85) return text.slice(0, at) + pick(PIECES) + text.slice(at + 1);
    // A raw byte flipped in the UTF-8 encoding (what a broken disk or transfer does), decoded as an editor would.
    const bytes = Buffer.from(text, "utf8");
    if (bytes.length === 0) return text;
    bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    return bytes.toString("utf8");
}

function randomPosition(text: string, random: () => number) {
    if (random() < 0.05) {
        // Past the end: a client out of sync must not break the server either.
        return { line: text.split("\n").length + Math.floor(random() * 5), character: Math.floor(random() * 200) };
    }
    return positionOf(text, Math.floor(random() * (text.length + 1)));
}

describe("hostile input: mutation sweep over stdio", () => {
    let client: TestClient;
    afterEach(async () => {
        await client?.stop();
    });

    it(`every prefix and ${RANDOM_EDITS} random edits of the demo file: all answered, no crash, ranges inside`, async function () {
        this.timeout(180000);
        client = await startClient({ pull: true });
        const full = fs.readFileSync(path.join(client.options.root, "answer.sourcecheck.json"), "utf8");
        const uri = await client.open("answer.sourcecheck.json", "sourcecheck");

        const cases: Case[] = [];
        for (let length = 0; length <= full.length; length++)
            cases.push({ label: `prefix ${length}`, text: full.slice(0, length) });
        const random = prng(SEED);
        let current = full;
        for (let i = 0; i < RANDOM_EDITS; i++) {
            // Mostly cumulative damage, sometimes a fresh start so both light and heavy damage are covered.
            if (random() < 0.1) current = full;
            current = mutate(current, random);
            cases.push({ label: `edit ${i} (seed ${SEED})`, text: current });
        }

        let requests = 0;
        let diagnosticsSeen = 0;
        const failures: string[] = [];
        const check = (ok: boolean, message: string) => {
            if (!ok && failures.length < 20) failures.push(message);
        };
        for (let from = 0; from < cases.length; from += BATCH) {
            const pending: Promise<void>[] = [];
            for (const { label, text } of cases.slice(from, from + BATCH)) {
                void client.change(uri, text);
                const ask = <R>(method: string, params: unknown, verify: (result: R) => void) => {
                    requests++;
                    pending.push(
                        within(client.request<R>(method, params), BOUND_MS, `${method} after ${label}`).then(verify),
                    );
                };
                ask<DocumentDiagnosticReport>("textDocument/diagnostic", { textDocument: { uri } }, (report) => {
                    check(report.kind === "full", `${label}: pull answered ${report.kind}`);
                    const items = report.kind === "full" ? report.items : [];
                    diagnosticsSeen += items.length;
                    for (const item of items) {
                        check(
                            rangeInside(text, item.range),
                            `${label}: ${item.code} range ${JSON.stringify(item.range)} outside the text`,
                        );
                        check(
                            item.source === "sourcecheck" && typeof item.code === "string",
                            `${label}: bad diagnostic`,
                        );
                    }
                });
                const position = randomPosition(text, random);
                ask<Hover | null>("textDocument/hover", { textDocument: { uri }, position }, (hover) => {
                    if (hover?.range) check(rangeInside(text, hover.range), `${label}: hover range outside`);
                });
                ask<CompletionItem[] | CompletionList | null>(
                    "textDocument/completion",
                    { textDocument: { uri }, position },
                    (result) => {
                        const items = Array.isArray(result) ? result : (result?.items ?? []);
                        for (const item of items) {
                            const edit = item.textEdit;
                            if (edit && "range" in edit) {
                                check(
                                    rangeInside(text, edit.range),
                                    `${label}: completion edit ${JSON.stringify(edit.range)} outside (asked at ${JSON.stringify(position)})`,
                                );
                            }
                        }
                    },
                );
                const a = positionOf(text, Math.floor(random() * (text.length + 1)));
                const b = positionOf(text, Math.floor(random() * (text.length + 1)));
                const range =
                    a.line < b.line || (a.line === b.line && a.character <= b.character)
                        ? { start: a, end: b }
                        : { start: b, end: a };
                const only = random() < 0.3 ? ["source.fixAll"] : undefined;
                ask<CodeAction[] | null>(
                    "textDocument/codeAction",
                    { textDocument: { uri }, range, context: { diagnostics: [], only } },
                    (actions) => {
                        for (const action of actions ?? []) {
                            for (const edit of action.edit?.changes?.[uri] ?? []) {
                                check(rangeInside(text, edit.range), `${label}: code action edit outside`);
                            }
                        }
                    },
                );
            }
            await Promise.all(pending);
            assert.deepEqual(failures, []);
            assertHealthy(client, `after ${cases[Math.min(from + BATCH, cases.length) - 1].label}`);
        }
        assert.equal(cases.length, full.length + 1 + RANDOM_EDITS);
        assert.equal(requests, cases.length * 4);
        assert.ok(diagnosticsSeen > cases.length, `the sweep saw diagnostics (${diagnosticsSeen})`);
        // Still answering correctly at the end: the demo file back, its 7 known problems.
        await client.change(uri, full);
        assert.equal((await client.pull(uri)).length, 7);
        assertHealthy(client, "at the end");
    });
});
