/**
 * The evidence index is data, not trusted code (docs/security.md, "The evidence index"): an index
 * file whose ids, slots or lengths are out of range, with every checksum recomputed as a forger would,
 * is rebuilt once with a warning; the CLI's `evidence` and the MCP `evidence` tool keep answering.
 * The files are forged here by the layout docs/evidence-internals.md states, not by the codec.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { crc32 } from "../../server/src/evidence/crc32";
import { defaultIndexDir, indexFileFor } from "../../server/src/workspace/evidenceStore";
import { runCli } from "./cliRun";

const fixtures = path.resolve(__dirname, "../../../test/fixtures/evidence");
const cliBundle = path.resolve(__dirname, "../../../dist/cli.js");
const MAGIC = 8;
const ROW = 8 * 4;

interface Parts {
    header: Record<string, unknown> & {
        docBytes: number[];
        slots: number;
        docCount: number;
        terms: (string | number)[];
    };
    /** The document columns then the chunk table, as in the file. */
    body: Buffer;
    /** Where the chunk table starts in `body`. */
    tableAt: number;
    /** Each term's list, in dictionary order. */
    lists: { term: string; bytes: Buffer; count: number; last: number }[];
}

function parse(bytes: Buffer): Parts {
    const headerLength = bytes.readUInt32LE(MAGIC);
    const header = JSON.parse(bytes.toString("utf8", MAGIC + 4, MAGIC + 4 + headerLength));
    const docsStart = (MAGIC + 4 + headerLength + 3) & ~3;
    const tableAt = (header.docBytes as number[]).reduce((a, b) => a + b, 0);
    const frontEnd = docsStart + tableAt + header.slots * ROW;
    const postings = frontEnd + 4;
    const lists: Parts["lists"] = [];
    for (let i = 0; i < header.terms.length; i += 6) {
        const [term, offset, length, count, last] = header.terms.slice(i, i + 5);
        const at = postings + (offset as number);
        lists.push({ term, bytes: bytes.subarray(at, at + (length as number)), count, last });
    }
    return { header, body: Buffer.from(bytes.subarray(docsStart, frontEnd)), tableAt, lists };
}

/** The file again, every checksum recomputed (what anyone who can write the file can do). */
function assemble({ header, body, lists }: Parts): Buffer {
    const terms: (string | number)[] = [];
    let offset = 0;
    for (const list of lists) {
        terms.push(list.term, offset, list.bytes.length, list.count, list.last, crc32(list.bytes));
        offset += list.bytes.length;
    }
    const json = Buffer.from(JSON.stringify({ ...header, terms, postingsBytes: offset }));
    const lead = Buffer.alloc(MAGIC + 4);
    lead.write("SCEVIDX2", 0, "latin1");
    lead.writeUInt32LE(json.length, MAGIC);
    const pad = Buffer.alloc(((MAGIC + 4 + json.length + 3) & ~3) - (MAGIC + 4 + json.length));
    const front = Buffer.concat([lead, json, pad, body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32LE(crc32(front));
    return Buffer.concat([front, crc, ...lists.map((l) => l.bytes)]);
}

function varint(value: number): number[] {
    const out: number[] = [];
    let rest = value;
    while (rest >= 0x80) {
        out.push((rest & 0x7f) | 0x80);
        rest = Math.floor(rest / 128);
    }
    out.push(rest);
    return out;
}

const table = (field: number, value: number) => (p: Parts) => p.body.writeInt32LE(value, p.tableAt + field * 4);
const FORGERIES: { name: string; edit: (parts: Parts) => void }[] = [
    { name: "a heading id of 2^31-1", edit: table(4, 2 ** 31 - 1) },
    { name: "a heading id of -1", edit: table(4, -1) },
    { name: "a document number past the documents", edit: (p) => table(0, p.header.docCount + 3)(p) },
    { name: "a document number of 2^31-1", edit: table(0, 2 ** 31 - 1) },
    {
        name: "a document's first slot past the table",
        edit: (p) => {
            // The slots column is the sixth; each document has its first slot and its chunk count.
            const at = p.header.docBytes.slice(0, 5).reduce((a, b) => a + b, 0);
            p.body.writeInt32LE(p.header.slots + 10, at);
        },
    },
    {
        name: "a posting's slot past the table",
        edit: (p) => {
            const list = p.lists[0];
            const slot = p.header.slots + 5;
            list.bytes = Buffer.from([...varint(slot + 1), 1]);
            list.count = 1;
            list.last = slot;
        },
    },
];

function tempDir(): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-index-bounds-"));
}

describe("hardening: a forged evidence index is rebuilt, never trusted", function () {
    this.timeout(60000);
    const dirs: string[] = [];
    after(() => {
        for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    for (const forgery of FORGERIES) {
        it(`CLI evidence: ${forgery.name}`, () => {
            const corpus = tempDir();
            const indexDir = tempDir();
            dirs.push(corpus, indexDir);
            fs.cpSync(path.join(fixtures, "corpus"), corpus, { recursive: true });
            const args = [
                "evidence",
                "--corpus",
                corpus,
                "--index-dir",
                indexDir,
                "--json",
                "--query",
                "memory layers",
            ];
            const cwd = { cwd: corpus };
            const first = runCli(args, cwd);
            assert.equal(first.status, 0, first.stderr);
            const file = indexFileFor(indexDir, fs.realpathSync(corpus));
            const parts = parse(fs.readFileSync(file));
            forgery.edit(parts);
            fs.writeFileSync(file, assemble(parts));
            const forged = runCli(args, cwd);
            assert.equal(forged.status, 0, forged.stderr);
            assert.match(
                forged.stderr,
                /the evidence index .* is unreadable \(its .* is out of range\); rebuilding it/,
            );
            assert.deepEqual(JSON.parse(forged.stdout).hits, JSON.parse(first.stdout).hits);
            // Rebuilt once: the next run reads the new file without a word.
            const again = runCli(args, cwd);
            assert.equal(again.status, 0);
            assert.equal(again.stderr, "");
        });
    }

    it("MCP evidence: every forgery answered, the index rebuilt, no internal-error", async () => {
        const root = fs.realpathSync(tempDir());
        const cache = tempDir();
        dirs.push(root, cache);
        fs.cpSync(path.join(fixtures, "corpus"), root, { recursive: true });
        const env = { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cache };
        const file = indexFileFor(defaultIndexDir(env, "linux"), root);
        const ask = async () => {
            const client = new Client({ name: "index-bounds", version: "1.0.0" });
            await client.connect(
                new StdioClientTransport({ command: process.execPath, args: [cliBundle, "mcp", "--root", root], env }),
            );
            try {
                return (await client.callTool({
                    name: "evidence",
                    arguments: { query: "memory layers" },
                })) as CallToolResult;
            } finally {
                await client.close();
            }
        };
        // The server's own index (its settings are the tool's), built by a first call.
        assert.notEqual((await ask()).isError, true);
        assert.ok(fs.existsSync(file), "the server keeps its index in the user's cache");
        const pristine = fs.readFileSync(file);
        let answered = 0;
        for (const forgery of FORGERIES) {
            const parts = parse(pristine);
            forgery.edit(parts);
            fs.writeFileSync(file, assemble(parts));
            const result = await ask();
            assert.notEqual(result.isError, true, `${forgery.name}: ${JSON.stringify(result.content)}`);
            const answer = result.structuredContent as { hits: unknown[] };
            assert.ok(answer.hits.length > 0, forgery.name);
            answered++;
            // The file was rebuilt: the forged one is gone.
            assert.notDeepEqual(fs.readFileSync(file), assemble(parts));
        }
        assert.equal(answered, FORGERIES.length);
    });
});
