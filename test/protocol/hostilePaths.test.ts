/**
 * Hostile paths through the server (docs/contract.md section 3): absolute paths, `..` escapes, a symlink out of
 * the root, a FIFO, a directory, a binary file, invalid UTF-8, a symlink loop, and a file deleted
 * while cited. Each gets its code on the ref's `path` token; nothing blocks on the FIFO.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic, Hover } from "vscode-languageserver-protocol";
import { copyDemo, rangeOf, startClient, type TestClient } from "./harness";
import { assertHealthy, within } from "./hostileHelpers";

const BOUND_MS = 5000;

function mkfifo(at: string): void {
    execFileSync("mkfifo", [at]);
}

function annotationWith(sourcePath: string): unknown {
    return {
        claim: { path: "answer.md", start: { line: 3, str: "37%" }, end: { line: 3, str: "37%" } },
        sources: [
            {
                path: sourcePath,
                start: { line: 1, str: "cited" },
                end: { line: 1, str: "text" },
                polarity: "supports",
                confidence: 0.5,
            },
        ],
    };
}

describe("hostile input: paths through the server", () => {
    let client: TestClient | undefined;
    afterEach(async () => {
        await client?.stop();
        client = undefined;
    });

    it("each hostile path gets its error code on the path token, and a deleted cited file turns unreadable", async function () {
        this.timeout(30000);
        const root = copyDemo();
        const outside = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "sourcecheck-outside-"));
        fs.writeFileSync(path.join(outside, "secret.txt"), "cited secret text\n");
        fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "link.txt"));
        fs.symlinkSync(outside, path.join(root, "linkdir"));
        fs.symlinkSync(path.join(root, "loop.txt"), path.join(root, "loop.txt"));
        mkfifo(path.join(root, "pipe.txt"));
        fs.mkdirSync(path.join(root, "folder.txt"));
        fs.writeFileSync(path.join(root, "binary.txt"), Buffer.from([0x63, 0x69, 0x74, 0x65, 0x64, 0x00, 0x01, 0x0a]));
        fs.writeFileSync(path.join(root, "latin1.txt"), Buffer.from("cited caf\xe9 text\n", "latin1"));
        fs.writeFileSync(path.join(root, "gone.txt"), "some cited text\n");

        const cases: [string, string][] = [
            [path.join(root, "answer.md"), "path-outside-root"], // absolute, even though inside
            ["/etc/hostname", "path-outside-root"],
            ["C:\\Windows\\win.ini", "path-outside-root"],
            ["file:///etc/passwd", "path-outside-root"],
            ["~/notes.txt", "path-outside-root"],
            ["../secret.txt", "path-outside-root"],
            ["sources/../../secret.txt", "path-outside-root"],
            [`../${path.basename(outside)}/secret.txt`, "path-outside-root"],
            ["link.txt", "path-outside-root"],
            ["linkdir/secret.txt", "path-outside-root"],
            ["nul\u0000byte.txt", "path-outside-root"],
            ["loop.txt", "unreadable-document"],
            ["pipe.txt", "unreadable-document"],
            ["folder.txt", "unreadable-document"],
            ["sources", "unreadable-document"],
            ["binary.txt", "unreadable-document"],
            ["latin1.txt", "unreadable-document"],
            ["missing.txt", "unreadable-document"],
        ];
        const text = `${JSON.stringify({ annotations: [...cases.map(([p]) => annotationWith(p)), annotationWith("gone.txt")] }, null, 2)}\n`;
        fs.writeFileSync(path.join(root, "paths.sourcecheck.json"), text);
        client = await startClient({ pull: true, root });
        const uri = await client.open("paths.sourcecheck.json", "sourcecheck");
        const pathToken = (p: string) => rangeOf(text, `"path": ${JSON.stringify(p)}`);
        const onPath = (items: Diagnostic[]) =>
            items.map((d) => ({ code: d.code, pointer: (d.data as { pointer: string }).pointer, range: d.range }));
        const expected = cases.map(([p, code], index) => {
            const whole = pathToken(p);
            const token = {
                start: { ...whole.start, character: whole.start.character + '"path": '.length },
                end: whole.end,
            };
            return { code, pointer: `/annotations/${index + 1}/sources/0`, range: token };
        });
        const items = await within(client.pull(uri), BOUND_MS, "pull");
        assert.deepEqual(
            onPath(items).sort((a, b) => a.pointer.localeCompare(b.pointer)),
            expected
                .map((e, index) => ({ ...e, pointer: `/annotations/${index}/sources/0/path` }))
                .sort((a, b) => a.pointer.localeCompare(b.pointer)),
        );
        for (const item of items)
            assert.ok(!item.message.includes("cited secret text"), `no content leaks: ${item.message}`);

        // Requests on the FIFO itself are answered, not blocked on a read that never ends.
        const pipeUri = pathToFileURL(path.join(root, "pipe.txt")).href;
        await within(client.request("sourcecheck/citedSpans", { uri: pipeUri }), BOUND_MS, "citedSpans on a FIFO");
        await within(client.request("sourcecheck/coverage", { uri: pipeUri }), BOUND_MS, "coverage on a FIFO");
        await assert.rejects(within(client.request("sourcecheck/lineIndex", { uri: pipeUri }), BOUND_MS, "lineIndex"));

        // Deleted while cited: unreadable-document on its path token once the watcher says so.
        const gonePointer = `/annotations/${cases.length}/sources/0/path`;
        assert.ok(!onPath(items).some((d) => d.pointer === gonePointer), "gone.txt resolves before it is deleted");
        fs.rmSync(path.join(root, "gone.txt"));
        const refreshes = client.refreshes.diagnostics;
        await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
            changes: [{ uri: pathToFileURL(path.join(root, "gone.txt")).href, type: 3 }],
        });
        await client.waitFor(() => client!.refreshes.diagnostics > refreshes, "a diagnostics refresh");
        const after = onPath(await within(client.pull(uri), BOUND_MS, "pull after delete"));
        const gone = pathToken("gone.txt");
        assert.deepEqual(
            after.filter((d) => d.pointer === gonePointer),
            [
                {
                    code: "unreadable-document",
                    pointer: gonePointer,
                    range: {
                        start: { ...gone.start, character: gone.start.character + '"path": '.length },
                        end: gone.end,
                    },
                },
            ],
        );
        assert.equal(after.length, cases.length + 1);
        assertHealthy(client);
    });

    it("a FIFO named like an annotation file (or a symlink to one) never blocks the server", async function () {
        this.timeout(30000);
        const root = copyDemo();
        mkfifo(path.join(root, "trap.sourcecheck.json"));
        fs.symlinkSync(path.join(root, "trap.sourcecheck.json"), path.join(root, "link.sourcecheck.json"));
        client = await startClient({ pull: true, root });
        const uri = await client.open("answer.sourcecheck.json", "sourcecheck");
        const position = rangeOf(client.text(uri), '"offline sync"').start;
        const hover = () =>
            within(
                client!.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position }),
                BOUND_MS,
                "hover with a FIFO in the workspace",
            );
        assert.ok(await hover(), "answered after the start-up scan");
        // The watcher reports the FIFO (created, then changed): the server must not try to read it whole.
        for (const type of [1, 2]) {
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [
                    { uri: client.uri("trap.sourcecheck.json"), type },
                    { uri: client.uri("link.sourcecheck.json"), type },
                ],
            });
            await new Promise((resolve) => setTimeout(resolve, 300)); // past the server's debounce
            assert.ok(await hover(), `answered after watcher event type ${type}`);
        }
        assert.equal((await within(client.pull(uri), BOUND_MS, "pull")).length, 7);
        assertHealthy(client);
    });
});
