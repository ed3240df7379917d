/**
 * The one door (server/src/workspace/workspace.ts, docs/architecture.md "One door for files"): the
 * memory and the Node workspace answer the same questions the same way; the memory workspace records
 * every read; a write is refused once the file changed since it was read; documents obey the root.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isDocumentFailure } from "../../server/src/core/session";
import { createMemoryWorkspace } from "../../server/src/workspace/memoryWorkspace";
import { createNodeWorkspace } from "../../server/src/workspace/nodeWorkspace";
import { climbsOut, isInside } from "../../server/src/workspace/pathSafety";
import {
    documentsOf,
    type Workspace,
    WorkspaceWriteError,
    workspaceDocuments,
} from "../../server/src/workspace/workspace";
import { runCliAsync } from "./cliRun";

const FILES: Record<string, string> = {
    "notes/a.md": "first line\r\nsecond line\n",
    "notes/deep/b.md": "bee\n",
    "answer.md": "The answer.\n",
};

function onDisk(files: Record<string, string>): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-workspace-")));
    for (const [name, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
}

function described(workspace: Workspace, documentPath: string): string {
    const document = documentsOf(workspace, workspace.root).get(documentPath);
    if (document === undefined) return "undefined";
    if (isDocumentFailure(document)) return `${document.code}: ${document.message}`;
    return `text: ${JSON.stringify(document.content)}`;
}

describe("workspace: one door for files", () => {
    const memory = createMemoryWorkspace(FILES);
    const disk = createNodeWorkspace(onDisk(FILES));

    it("gives the same document, or the same refusal, on disk and in memory", () => {
        const paths = [
            "notes/a.md",
            "notes/deep/b.md",
            "missing.md",
            "../outside.md",
            "/etc/passwd",
            "notes",
            "notes/../answer.md",
        ];
        for (const documentPath of paths) {
            assert.equal(described(memory, documentPath), described(disk, documentPath), documentPath);
        }
        // The generic rule (readText and realPath) agrees with the Node host's own safe reader.
        for (const documentPath of paths) {
            const generic = workspaceDocuments(disk, disk.root).get(documentPath);
            const own = documentsOf(disk, disk.root).get(documentPath);
            const shape = (d: typeof own) =>
                d === undefined ? "none" : isDocumentFailure(d) ? d.code : `text ${d.content.length}`;
            assert.equal(shape(generic), shape(own), documentPath);
        }
        assert.equal(described(memory, "notes/a.md"), 'text: "first line\\nsecond line\\n"', "CRLF read as LF");
    });

    it("lists folders and stats files alike", async () => {
        for (const workspace of [memory, disk]) {
            const entries = await workspace.list(path.posix.join(workspace.root, "notes"));
            assert.deepEqual(
                entries?.map((e) => `${e.name}:${e.kind}`).sort(),
                ["a.md:file", "deep:directory"],
                workspace.root,
            );
            assert.equal((workspace.stat(`${workspace.root}/answer.md`) as { kind: string }).kind, "file");
            assert.equal(workspace.stat(`${workspace.root}/nothing.md`), undefined);
            assert.equal(workspace.hasPending(), false);
        }
    });

    it("records every read of the memory workspace, in order", () => {
        const recorded = createMemoryWorkspace(FILES);
        documentsOf(recorded, recorded.root).get("answer.md");
        recorded.stat("/workspace/notes/a.md");
        // The document rule resolves the root and the path, then reads it.
        assert.deepEqual(recorded.reads, [
            "/workspace",
            "/workspace/answer.md",
            "/workspace/answer.md",
            "/workspace/notes/a.md",
        ]);
    });

    it("writes only while the file is as it was read, on disk and in memory", async () => {
        for (const workspace of [createMemoryWorkspace(FILES), createNodeWorkspace(onDisk(FILES))]) {
            const file = `${workspace.root}/answer.md`;
            const read = workspace.readText(file, 1024);
            assert.ok(read.ok);
            await workspace.write(file, "Second answer.\n", { ifUnchanged: read.text });
            const again = workspace.readText(file, 1024);
            assert.deepEqual(again, { ok: true, text: "Second answer.\n" });
            // Written by someone else since `read`: refused, and the file keeps the other's text.
            await assert.rejects(
                workspace.write(file, "Third.\n", { ifUnchanged: read.text }),
                (error: unknown) => error instanceof WorkspaceWriteError && error.code === "changed",
            );
            assert.deepEqual(workspace.readText(file, 1024), again);
            // A new file: only while there is none.
            await workspace.write(`${workspace.root}/new.md`, "new\n", { ifUnchanged: null });
            await assert.rejects(workspace.write(`${workspace.root}/new.md`, "again\n", { ifUnchanged: null }));
            assert.deepEqual(workspace.readText(`${workspace.root}/new.md`, 1024), { ok: true, text: "new\n" });
        }
    });

    it("refuses a write outside the root on disk", async () => {
        const workspace = createNodeWorkspace(onDisk(FILES));
        const outside = path.join(path.dirname(workspace.root), "sourcecheck-outside-write.md");
        await assert.rejects(
            workspace.write(outside, "x", { ifUnchanged: null }),
            (error: unknown) => error instanceof WorkspaceWriteError && error.code === "outside",
        );
        assert.equal(fs.existsSync(outside), false);
    });

    it("follows a symlink leading out of the root on disk to a refusal, by either rule", () => {
        const dir = onDisk(FILES);
        const outside = onDisk({ "secret.md": "secret\n" });
        fs.symlinkSync(path.join(outside, "secret.md"), path.join(dir, "link.md"));
        const workspace = createNodeWorkspace(dir);
        assert.match(described(workspace, "link.md"), /^path-outside-root: .*symlink leading outside/);
        const generic = workspaceDocuments(workspace, dir).get("link.md");
        assert.ok(generic && isDocumentFailure(generic) && generic.code === "path-outside-root");
    });

    it("refuses a document over the size cap with the same sentence in memory and on disk", () => {
        const big = { "big.md": "é".repeat(700) };
        const answers = [createMemoryWorkspace(big), createNodeWorkspace(onDisk(big))].map((w) => {
            const d = documentsOf(w, w.root, { maxBytes: 1024 }).get("big.md");
            return d && isDocumentFailure(d) ? d.message : "read";
        });
        assert.equal(answers[0], answers[1]);
        assert.match(answers[0], /1\.4 KiB, over the 1\.0 KiB size cap/);
    });

    it("tells a watcher of the memory workspace about writes under its folder", async () => {
        const workspace = createMemoryWorkspace(FILES);
        const seen: string[] = [];
        const watching = workspace.watch?.("/workspace/notes", (p) => seen.push(p));
        await workspace.write("/workspace/notes/a.md", "x\n", { ifUnchanged: FILES["notes/a.md"] });
        await workspace.write("/workspace/answer.md", "y\n", { ifUnchanged: FILES["answer.md"] });
        watching?.dispose();
        await workspace.write("/workspace/notes/a.md", "z\n", { ifUnchanged: "x\n" });
        assert.deepEqual(seen, ["/workspace/notes/a.md"]);
        assert.equal(workspace.files()["notes/a.md"], "z\n");
    });

    it("has one isInside: a file named ..notes.md is inside the root, on every path through the CLI", async () => {
        assert.equal(isInside("/r", "/r/..notes.md"), true);
        assert.equal(isInside("/r", "/r/../notes.md"), false);
        assert.deepEqual(["..", "../x", "..x", "..\\x", "a/.."].map(climbsOut), [true, true, false, false, false]);
        const dir = onDisk({
            "..notes.md": "Dots lead the name.\n",
            "..answer.sourcecheck.json": JSON.stringify([
                {
                    claim: { path: "..notes.md", start: { line: 1, str: "Dots" }, end: { line: 1, str: "name." } },
                    sources: [
                        {
                            path: "..notes.md",
                            start: { line: 1, str: "Dots" },
                            end: { line: 1, str: "lead" },
                            polarity: "supports",
                            confidence: 1,
                        },
                    ],
                },
            ]),
        });
        const json = await runCliAsync(["check", "--json", "."], { cwd: dir });
        const report = JSON.parse(json.stdout);
        assert.equal(report.files[0].file, "..answer.sourcecheck.json", "shown relative, as a file inside");
        assert.equal(report.files[0].validCount, 1);
        const sarif = await runCliAsync(["check", "--format", "sarif", "."], { cwd: dir });
        const uris = JSON.parse(sarif.stdout).runs[0].results.map(
            (r: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[] }) =>
                r.locations[0].physicalLocation.artifactLocation,
        );
        assert.ok(uris.length > 0, "the self-citation warning is a result");
        for (const uri of uris) assert.deepEqual(uri, { uri: "..answer.sourcecheck.json", uriBaseId: "%SRCROOT%" });
    });
});
