/**
 * The browser's reads (docs/web.md, "How it reads files"): the language server in a web worker reads
 * through the client (workspace/clientFiles.ts), so a read is first pending. The language service is
 * bundled here as the web worker gets it (scripts/web-build.mjs's options), given the client's files as
 * browserHost.ts gives them, and driven over a client whose answers the test holds back and releases.
 * A pending read is never "missing"; every answer kept is dropped when the client says the file changed,
 * and an answer that arrives while someone else waits for it still reaches the check that asked.
 */
import * as assert from "node:assert/strict";
import * as path from "node:path";
import { FileChangeType, type Hover } from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { createLanguageService } from "../../server/src/languageService";
import type { ClientFiles, ClientRead, FileAsker } from "../../server/src/workspace/clientFiles";
import type { virtualUriSpace } from "../../server/src/workspace/uris";
import type { clientLocks } from "../../server/src/workspace/web/clientLocks";
import type { clientReads } from "../../server/src/workspace/web/clientReads";
import type { asyncDiscoveryFsOver, discoveryFsOver } from "../../server/src/workspace/web/clientWalk";
import { loadWebEntry, WEB_ANSWER, WEB_BENCHMARK } from "./webDemo";

const _repo = path.resolve(__dirname, "../../..");

/** What the bundle exports: the web worker's language service and files. */
interface WebModules {
    ClientFiles: typeof ClientFiles;
    createLanguageService: typeof createLanguageService;
    virtualUriSpace: typeof virtualUriSpace;
    discoveryFsOver: typeof discoveryFsOver;
    asyncDiscoveryFsOver: typeof asyncDiscoveryFsOver;
    clientLocks: typeof clientLocks;
    clientReads: typeof clientReads;
    TextDocument: typeof TextDocument;
}

/** Bundles the language service as the web worker gets it (scripts/web-build.mjs's options) and loads it. */
function loadWebBundle(): WebModules {
    return loadWebEntry<WebModules>("webfiles", (server) =>
        [
            `export { ClientFiles } from ${server("workspace/clientFiles")};`,
            `export { createLanguageService } from ${server("languageService")};`,
            `export { virtualUriSpace } from ${server("workspace/uris")};`,
            `export { asyncDiscoveryFsOver, discoveryFsOver } from ${server("workspace/web/clientWalk")};`,
            `export { clientLocks } from ${server("workspace/web/clientLocks")};`,
            `export { clientReads } from ${server("workspace/web/clientReads")};`,
            `export { TextDocument } from "vscode-languageserver-textdocument";`,
        ].join("\n"),
    );
}

/** A client over files in memory whose answers wait until `release()`; it counts what it was asked. */
function heldClient(files: Map<string, string>) {
    const held: (() => void)[] = [];
    const asked: string[] = [];
    const hold = <T>(path: string, answer: () => T) =>
        new Promise<T>((resolve) => {
            asked.push(path);
            held.push(() => resolve(answer()));
        });
    const isFolder = (path: string) => [...files.keys()].some((file) => file.startsWith(`${path}/`));
    const asker: FileAsker = {
        read: (path) =>
            hold<ClientRead>(path, () => {
                const text = files.get(path);
                return text === undefined ? { kind: "missing" } : { kind: "text", text };
            }),
        stat: (path) =>
            hold(path, () => {
                const text = files.get(path);
                if (text !== undefined) return { kind: "file" as const, size: text.length, mtime: 1 };
                return isFolder(path) ? { kind: "directory" as const, size: 0, mtime: 1 } : undefined;
            }),
        list: async (directory) => {
            const names = new Map<string, "file" | "directory">();
            for (const file of files.keys()) {
                if (!file.startsWith(`${directory}/`)) continue;
                const [name, ...below] = file.slice(directory.length + 1).split("/");
                names.set(name, below.length > 0 ? "directory" : "file");
            }
            return [...names].map(([name, kind]) => ({ name, kind }));
        },
    };
    /** Answers everything asked so far; true when something was. */
    const release = () => {
        const now = held.splice(0);
        for (const answer of now) answer();
        return now.length > 0;
    };
    return { asker, release, asked };
}

const DEMO: [string, string][] = [
    ["/demo/answer.sourcecheck.json", WEB_ANSWER],
    ["/demo/answer.md", "Cold start is faster.\n"],
    ["/demo/sources/benchmark.txt", WEB_BENCHMARK],
];

describe("the browser's reads through the client (what the web entry passes in)", function () {
    this.timeout(60_000);
    let web: WebModules;
    before(() => {
        web = loadWebBundle();
    });

    function setUp(files = new Map(DEMO)) {
        const client = heldClient(files);
        const clientFiles = new web.ClientFiles(client.asker);
        const open = new Map<string, TextDocument>();
        const errors: string[] = [];
        const service = web.createLanguageService({
            reads: clientFiles,
            realPath: (path) => path,
            walk: { sync: web.discoveryFsOver(clientFiles), async: web.asyncDiscoveryFsOver(() => clientFiles) },
            locks: web.clientLocks(clientFiles),
            readers: web.clientReads(clientFiles),
            // The workspace's scheme, as the browser host gives it (browserHost.ts).
            uris: () => web.virtualUriSpace("sourcecheck-mem:/demo"),
            documents: { get: (uri) => open.get(uri) },
            logger: { error: (message) => errors.push(message) },
            events: { changed() {}, removed() {}, refsCanFollow() {} },
        });
        service.initialize({ rootPath: "/demo" });
        const doc = web.TextDocument.create(
            "sourcecheck-mem:/demo/answer.sourcecheck.json",
            "sourcecheck",
            1,
            WEB_ANSWER,
        );
        open.set(doc.uri, doc);
        /** Releases the client's answers, round after round, until `waiting` resolves. */
        const answerUntil = async (waiting: Promise<unknown>) => {
            let done = false;
            void waiting.then(() => {
                done = true;
            });
            for (let round = 0; !done; round++) {
                assert.ok(round < 200, "the check kept asking");
                client.release();
                await new Promise((resolve) => setTimeout(resolve, 1));
            }
            return waiting;
        };
        const hoverText = () => {
            const at = doc.positionAt(WEB_ANSWER.indexOf('"delta"') + 2);
            const hover = service.hover({ textDocument: { uri: doc.uri }, position: at }) as Hover | null;
            return JSON.stringify(hover?.contents ?? null);
        };
        const codes = () => {
            const report = service.diagnostics(doc.uri, undefined).report;
            return report.kind === "full" ? report.items.map((d) => `${d.code} ${d.message}`) : [];
        };
        return { ...client, clientFiles, service, doc, errors, answerUntil, hoverText, codes };
    }

    it("a read pending, then answered, yields the file; its arrival is told whoever waits", async () => {
        const { clientFiles, answerUntil } = setUp();
        const arrived: string[] = [];
        clientFiles.onArrived((path) => arrived.push(path));
        const first = clientFiles.readText("/demo/answer.md", 1024);
        assert.deepEqual(first, { ok: false, reason: "pending", message: "is being read" });
        await answerUntil(clientFiles.settle());
        assert.deepEqual(clientFiles.readText("/demo/answer.md", 1024), { ok: true, text: "Cold start is faster.\n" });
        assert.deepEqual(arrived, ["/demo/answer.md"]);
    });

    it("a pending read is never 'no file': the web reader says it is being read", () => {
        const { clientFiles } = setUp();
        const read = web.clientReads(clientFiles).readDocument("/demo", "sources/benchmark.txt");
        assert.equal(read.ok, false);
        assert.ok(!read.ok && !read.failure.message.includes("no file"), JSON.stringify(read));
        assert.ok(!read.ok && read.failure.message.includes("is still being read"), JSON.stringify(read));
    });

    it("a miss is read again once the client says the file changed (read and stat)", async () => {
        const files = new Map(DEMO);
        const { clientFiles, answerUntil, asked } = setUp(files);
        clientFiles.readText("/demo/new.md", 1024);
        clientFiles.stat("/demo/new.md");
        await answerUntil(clientFiles.settle());
        assert.equal(clientFiles.readText("/demo/new.md", 1024).ok, false);
        assert.equal(clientFiles.stat("/demo/new.md"), undefined);
        files.set("/demo/new.md", "New.\n");
        // Kept until the client says otherwise: asking again costs no question.
        assert.equal(asked.length, 2);
        clientFiles.changed("/demo/new.md");
        assert.equal(clientFiles.stat("/demo/new.md"), "pending");
        assert.equal(clientFiles.readText("/demo/new.md", 1024).ok, false);
        await answerUntil(clientFiles.settle());
        assert.deepEqual(clientFiles.readText("/demo/new.md", 1024), { ok: true, text: "New.\n" });
        assert.deepEqual(clientFiles.stat("/demo/new.md"), { kind: "file", size: 5, mtime: 1 });
    });

    it("an answer taken by another waiter (the workspace walk) still reaches the check and the hover", async () => {
        const { clientFiles, service, doc, answerUntil, hoverText, codes, errors } = setUp();
        // The first check asks for the cited document, the lock and the configuration: all pending.
        hoverText();
        // The walk of the workspace waits for its own reads and takes every answer that arrived...
        const walk = clientFiles.settle();
        // ...before the hover's wait sees them (docs/web.md): the check is made again all the same.
        await answerUntil(Promise.all([walk, service.whenRead(doc.uri)]));
        const text = hoverText();
        assert.ok(text.includes("delta: -37%"), text);
        assert.ok(!text.includes("no file"), text);
        assert.deepEqual(codes(), []);
        assert.deepEqual(errors, []);
    });

    it("a cited file missing, then created (the client's change event), is found", async () => {
        const files = new Map(DEMO);
        files.delete("/demo/sources/benchmark.txt");
        const { service, doc, answerUntil, codes } = setUp(files);
        // As the server starts: the workspace is walked (its folders' rules known), then checked.
        await answerUntil(service.scan());
        await answerUntil(service.whenRead(doc.uri));
        assert.deepEqual(codes(), ['unreadable-document no file "sources/benchmark.txt" under the document root']);
        files.set("/demo/sources/benchmark.txt", DEMO[2][1]);
        // The client's Created event, as lsp/watchedFiles.ts hands it to the service.
        service.fileChangedOnDisk({ uri: "sourcecheck-mem:/demo/sources/benchmark.txt", type: FileChangeType.Created });
        await answerUntil(service.whenRead(doc.uri));
        assert.deepEqual(codes(), []);
    });
});
