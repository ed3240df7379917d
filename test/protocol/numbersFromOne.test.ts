/**
 * Numbers from 1 on every front end (docs/contract.md, "Numbers"): every output a person or a model
 * reads — the CLI's text and JSON of each command, the MCP tools' results, the language server's
 * diagnostics, hovers, code actions, view data and agent tools — on a drifted workspace (refs of the
 * first annotation's first source broken: a 0-based output would say 0 there) and the demo.
 *
 * The oracle is independent of the code under test: a JSON Pointer (`/annotations/i/sources/j`, 0-based
 * by its nature) sits beside every item that names a place, so `annotation` must be i + 1 and
 * `source` j + 1; `role` is "claim" or "source", never a number; no text says "annotation 0",
 * "source 0", "line 0", "column 0" or "(index N)".
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getLocation } from "jsonc-parser";
import type { CodeAction, Diagnostic, Hover, MarkupContent } from "vscode-languageserver-protocol";
import { diskToolRunner } from "../../server/src/mcp/diskContext";
import { createMcpServer } from "../../server/src/mcp/server";
import { runCli } from "../unit/cliRun";
import { driftedWorkspace, FILE, GUIDE } from "../unit/driftWorkspace";
import { copyDemo, startClient } from "./harness";

/** Words that name a place counted from 0 in text read by people. */
const ZERO_BASED_TEXT = [
    /\bannotations? #?0\b/i,
    /\bsources? #?0\b/i,
    /\bline 0\b/i,
    /\bcolumn 0\b/i,
    /\(index \d+\)/i,
    /\bannotation index\b/i,
    /\.(?:json|md):0:\d+/,
    /\.(?:json|md):\d+:0\b/,
];

interface Finding {
    where: string;
    what: string;
}

/** Every problem of one output: its JSON (when it is JSON) walked, its text scanned. */
function inspect(where: string, output: unknown, findings: Finding[], counted: { items: number; texts: number }): void {
    if (typeof output === "string") {
        counted.texts++;
        for (const pattern of ZERO_BASED_TEXT) {
            const match = pattern.exec(output);
            if (match)
                findings.push({
                    where,
                    what: `text says ${JSON.stringify(match[0])}: ${excerpt(output, match.index)}`,
                });
        }
        const json = parseJson(output);
        if (json !== undefined) inspectValue(where, json, findings, counted);
        return;
    }
    inspectValue(where, output, findings, counted);
}

function inspectValue(
    where: string,
    value: unknown,
    findings: Finding[],
    counted: { items: number; texts: number },
): void {
    if (typeof value === "string") {
        for (const pattern of ZERO_BASED_TEXT) {
            const match = pattern.exec(value);
            if (match) findings.push({ where, what: `${JSON.stringify(match[0])} in ${excerpt(value, match.index)}` });
        }
        return;
    }
    if (Array.isArray(value)) {
        for (const item of value) inspectValue(where, item, findings, counted);
        return;
    }
    if (typeof value !== "object" || value === null) return;
    const record = value as Record<string, unknown>;
    const place =
        typeof record.pointer === "string"
            ? /^\/annotations\/(\d+)(?:\/(claim)|\/sources\/(\d+))?/.exec(record.pointer)
            : null;
    if ("role" in record && typeof record.role === "number") {
        findings.push({ where, what: `role is the number ${record.role} (${JSON.stringify(record).slice(0, 160)})` });
    }
    // 0-based positions only in a field named `index` (or inside a pointer): never `annotationIndex`.
    for (const key of Object.keys(record)) {
        if (/^(annotation|source)Index$/.test(key))
            findings.push({ where, what: `${key} (${JSON.stringify(record).slice(0, 160)})` });
    }
    for (const key of ["annotation", "source"] as const) {
        if (typeof record[key] === "number" && (record[key] as number) < 1) {
            findings.push({ where, what: `${key}: ${record[key]} (${JSON.stringify(record).slice(0, 160)})` });
        }
    }
    if (place && (typeof record.annotation === "number" || typeof record.source === "number")) {
        counted.items++;
        if (typeof record.annotation === "number" && record.annotation !== Number(place[1]) + 1) {
            findings.push({ where, what: `annotation ${record.annotation} at ${record.pointer}` });
        }
        if (place[3] !== undefined && typeof record.source === "number" && record.source !== Number(place[3]) + 1) {
            findings.push({ where, what: `source ${record.source} at ${record.pointer}` });
        }
        const role = place[3] !== undefined ? "source" : "claim";
        if (typeof record.role === "string" && record.role !== role) {
            findings.push({ where, what: `role ${record.role} at ${record.pointer}` });
        }
    }
    for (const [key, child] of Object.entries(record)) {
        // LSP positions and ranges are the protocol's own (0-based by definition), not read by people.
        if (key === "range" || key === "selectionRange" || key === "position") continue;
        inspectValue(where, child, findings, counted);
    }
}

/** Every string in a value (the words of machine data). */
function stringsOf(value: unknown): string[] {
    if (typeof value === "string") return [value];
    if (typeof value !== "object" || value === null) return [];
    return Object.values(value).flatMap(stringsOf);
}

function parseJson(text: string): unknown {
    const trimmed = text.trim();
    if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
        // An agent tool's prose ends with its JSON on the last line.
        const last = trimmed.split("\n").at(-1) ?? "";
        return last.startsWith("{") ? parseJson(last) : undefined;
    }
    try {
        return JSON.parse(trimmed);
    } catch {
        return undefined;
    }
}

function excerpt(text: string, at: number): string {
    return JSON.stringify(text.slice(Math.max(0, at - 60), at + 60));
}

async function mcpOutputs(root: string, calls: [string, Record<string, unknown>][]): Promise<[string, unknown][]> {
    const server = createMcpServer(diskToolRunner(root), "test");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "numbers", version: "1" });
    await client.connect(clientSide);
    const outputs: [string, unknown][] = [];
    try {
        await client.listTools();
        for (const [name, args] of calls) {
            const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
            const where = `MCP ${name} ${JSON.stringify(args)}`;
            outputs.push([where, result.structuredContent]);
            for (const part of result.content) if (part.type === "text") outputs.push([where, part.text]);
        }
    } finally {
        await client.close();
    }
    return outputs;
}

function cliOutputs(root: string, commands: string[][]): [string, unknown][] {
    return commands.flatMap((args): [string, unknown][] => {
        const run = runCli(args, { cwd: root });
        const where = `sourcecheck ${args.join(" ")}`;
        return [
            [`${where} (stdout)`, run.stdout],
            [`${where} (stderr)`, run.stderr],
        ];
    });
}

/** The JSON Pointer of the ref whose text starts at `range.start` of the annotation file, read by jsonc-parser. */
function pointerAt(text: string, range: { start: { line: number; character: number } }): string | undefined {
    const lines = text.split("\n");
    let offset = range.start.character + 1; // inside the ref's "{", so the location is the ref itself
    for (let line = 0; line < range.start.line; line++) offset += lines[line].length + 1;
    const at = getLocation(text, offset).path;
    if (at[0] !== "annotations" || typeof at[1] !== "number") return undefined;
    if (at[2] === "claim") return `/annotations/${at[1]}/claim`;
    return at[2] === "sources" && typeof at[3] === "number" ? `/annotations/${at[1]}/sources/${at[3]}` : undefined;
}

/**
 * A copy of the view's data with `pointer` beside each item whose ref (refRange) lies in `uri`'s text:
 * the items carry no pointer of their own, so the ref's place in the file is the independent oracle.
 */
function withPointers(value: unknown, text: string, uri: string, file = uri): unknown {
    if (Array.isArray(value)) return value.map((item) => withPointers(item, text, uri, file));
    if (typeof value !== "object" || value === null) return value;
    const record = value as Record<string, unknown>;
    const own = typeof record.annotationUri === "string" ? record.annotationUri : file;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(record)) copy[key] = withPointers(item, text, uri, own);
    const range = record.refRange as { start: { line: number; character: number } } | undefined;
    if (own === uri && range?.start) {
        const pointer = pointerAt(text, range);
        if (pointer !== undefined) copy.pointer = pointer;
    }
    return copy;
}

async function languageServerOutputs(root: string, file: string): Promise<[string, unknown][]> {
    const client = await startClient({ root, pull: true });
    const outputs: [string, unknown][] = [];
    try {
        const uri = await client.open(file, "sourcecheck");
        const diagnostics: Diagnostic[] = await client.pull(uri);
        // A diagnostic whole: its message, related messages and its data (numbered as every output is).
        outputs.push(["diagnostics", diagnostics]);
        const text = client.text(uri);
        // A hover and the code actions on every ref: each "path" key of the file.
        let at = text.indexOf('"path"');
        while (at >= 0) {
            const before = text.slice(0, at);
            const position = { line: before.split("\n").length - 1, character: at - before.lastIndexOf("\n") };
            const hover = await client.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position });
            if (hover) outputs.push([`hover at line ${position.line + 1}`, (hover.contents as MarkupContent).value]);
            at = text.indexOf('"path"', at + 1);
        }
        for (const diagnostic of diagnostics) {
            const actions = await client.request<CodeAction[]>("textDocument/codeAction", {
                textDocument: { uri },
                range: diagnostic.range,
                context: { diagnostics: [diagnostic] },
            });
            outputs.push([`code actions for ${diagnostic.code}`, (actions ?? []).map((a) => a.title)]);
        }
        // The view's data (shared/customProtocol.ts) is machine JSON the client turns into items: the
        // words in it are what the items show.
        outputs.push([
            "view: file annotations",
            stringsOf(await client.request("sourcecheck/fileAnnotations", { uri })),
        ]);
        outputs.push(["view: file summary", stringsOf(await client.request("sourcecheck/fileSummary", { uri }))]);
        // The data itself: each item of the view and each cited span names its annotation and source;
        // where its ref sits in the file (refRange) gives the JSON Pointer the oracle checks it against.
        const pointed = (value: unknown) => withPointers(value, text, uri);
        outputs.push(["view items", pointed(await client.request("sourcecheck/fileAnnotations", { uri }))]);
        const cited = await client.request<{ uris: string[] }>("sourcecheck/citedDocuments", {});
        assert.ok(cited.uris.length > 0, "the workspace cites documents");
        for (const document of cited.uris) {
            const spans = await client.request("sourcecheck/citedSpans", { uri: document });
            outputs.push([`cited spans of ${path.basename(document)}`, pointed(spans)]);
        }
        for (const name of ["check", "repair", "lock"]) {
            outputs.push([
                `agent tool ${name}`,
                await client.request("sourcecheck/agentTool", { name, input: { file } }),
            ]);
        }
    } finally {
        await client.stop();
    }
    return outputs;
}

describe("numbers from 1 on every front end (docs/contract.md, Numbers)", function () {
    this.timeout(120_000);

    for (const [name, make, file] of [
        ["a drifted workspace", () => driftedWorkspace({ git: false }), FILE],
        ["the demo", copyDemo, "answer.sourcecheck.json"],
    ] as const) {
        it(`no annotation, source, line or column counted from 0 outside a JSON Pointer: ${name}`, async () => {
            const root = make();
            const outputs: [string, unknown][] = [
                ...cliOutputs(root, [
                    ["check", file],
                    ["check", "--json", file],
                    ["check", "--format", "sarif", file],
                    ["check", "--format", "github", file],
                    ["repair", file],
                    ["repair", "--json", file],
                    ["index", "answer.md"],
                    ["annotate", file, "--remove", "1"],
                    ["annotate", "--json", file, "--remove", "1"],
                    ["cite", "--json", name === "the demo" ? "answer.md" : GUIDE, "the"],
                ]),
                ...(await mcpOutputs(root, [
                    ["check", { file }],
                    ["repair", { file }],
                    ["repair", { file, detail: "full" }],
                    ["lock", { file }],
                    ["annotate", { file, remove: 1 }],
                    ["index", { path: "answer.md" }],
                ])),
                ...(await languageServerOutputs(root, file)),
                // Lock writes: last, so that the outputs above saw the workspace as built.
                ...cliOutputs(root, [
                    ["lock", file],
                    ["lock", "--json", file],
                    ["check", "--locked", file],
                    ["check", "--locked", "--json", file],
                ]),
            ];
            const findings: Finding[] = [];
            const counted = { items: 0, texts: 0 };
            for (const [where, output] of outputs) inspect(where, output, findings, counted);
            const report = [...new Set(findings.map((f) => `${f.where}: ${f.what}`))];
            assert.deepEqual(report, [], report.slice(0, 40).join("\n"));
            // The walk saw places to check (a walk that found nothing to look at proves nothing).
            assert.ok(counted.items >= 10, `${counted.items} items with a pointer and an annotation`);
            // The view's items and cited spans among them, each held to its ref's place in the file.
            const view = { items: 0, texts: 0 };
            for (const [where, output] of outputs)
                if (/^(view items|cited spans)/.test(where)) inspect(where, output, [], view);
            assert.ok(view.items >= 6, `${view.items} view items and cited spans checked against their place`);
            assert.ok(outputs.length >= 30, `${outputs.length} outputs`);
            assert.ok(fs.existsSync(path.join(root, file)));
        });
    }

    it("the oracle finds what it looks for (each 0-based output the issue reported, and a place off by one)", () => {
        const found = (output: unknown) => {
            const findings: Finding[] = [];
            inspect("fixture", output, findings, { items: 0, texts: 0 });
            return findings.length;
        };
        // The lock's notLocked before operations/lock.ts, and repair's "role": 0.
        assert.ok(found('{"annotation":0,"role":0,"pointer":"/annotations/0/sources/0"}') >= 2);
        assert.ok(found({ annotation: 2, source: 1, pointer: "/annotations/2/sources/0" }) === 1);
        assert.ok(found({ annotation: 3, source: 2, pointer: "/annotations/2/sources/0" }) === 1);
        assert.ok(found('Replaced annotation 9 (index 8)\n{"ok":true}') === 1);
        assert.ok(found("a.sourcecheck.json:0:4: annotation 1, source 1") === 1);
        assert.ok(found("see annotation 0, source 1") === 1);
        assert.equal(found({ annotation: 3, role: "source", source: 2, pointer: "/annotations/2/sources/1" }), 0);
        // The view's data as it was (shared/customProtocol.ts): a 0-based annotationIndex, a numeric role.
        assert.equal(found({ annotationUri: "a", annotationIndex: 0, role: 0 }), 2);
        // Its items checked against the ref's place in the file: a source named the claim, a source off by one.
        const text = '{ "annotations": [ { "claim": {"path": "a"}, "sources": [ {"path": "b"}, {"path": "c"} ] } ] }';
        const at = (needle: string) => ({ start: { line: 0, character: text.indexOf(needle) } });
        const item = (refRange: unknown, more: object) =>
            withPointers({ annotationUri: "u", refRange, ...more }, text, "u");
        assert.equal(found(item(at('{"path": "c"}'), { annotation: 1, role: "source", source: 2 })), 0);
        assert.equal(found(item(at('{"path": "c"}'), { annotation: 1, role: "source", source: 1 })), 1);
        assert.equal(found(item(at('{"path": "a"}'), { annotation: 1, role: "source", source: 1 })), 1);
        assert.equal(found(item(at('{"path": "b"}'), { annotation: 2, role: "source", source: 1 })), 1);
        assert.equal(found("a.sourcecheck.json:12:4: annotation 1, source 1: line 3 of guide.md"), 0);
    });
});
