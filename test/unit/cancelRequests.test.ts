/**
 * Cancelling the requests that can run long (docs/custom-protocol.md, "Cancellation"): the service
 * takes a plain `cancelled` and, once it says so, stops between files or annotations with
 * OperationCancelled, writing nothing. "Fix All Certain Repairs in Workspace" over three annotation
 * files is cancelled after the first: no edit at all, every file as it was. Lock Refs and an agent
 * tool that writes stop the same way, before their write.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import {
    type AgentToolHandler,
    createLanguageService,
    type LanguageService,
    OperationCancelled,
} from "../../server/src/languageService";
import { agentTool } from "../../server/src/node/agentTools";
import { NODE_HOST } from "../../server/src/workspace/nodeHost";

const demoRoot = path.resolve(__dirname, "../../../examples/demo");
const FILES = ["answer.sourcecheck.json", "second.sourcecheck.json", "third.sourcecheck.json"];

/** The demo (its annotation file has certain repairs) with two more copies of that file. */
function workspace(): string {
    const root = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "sourcecheck-cancel-"));
    fs.cpSync(demoRoot, root, { recursive: true });
    const text = fs.readFileSync(path.join(root, FILES[0]), "utf8");
    for (const name of FILES.slice(1)) fs.writeFileSync(path.join(root, name), text);
    return root;
}

/** Every file under the root and its bytes, to compare before and after. */
function snapshot(root: string): Map<string, string> {
    const files = new Map<string, string>();
    for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        files.set(path.relative(root, file), fs.readFileSync(file, "utf8"));
    }
    return files;
}

/** The Node service over `root`, its agent tools counted as they finish. */
async function serviceOver(root: string, tool: AgentToolHandler = agentTool): Promise<LanguageService> {
    const service = createLanguageService({
        ...NODE_HOST,
        documents: { get: () => undefined },
        logger: { error: (message) => assert.fail(message) },
        events: { changed() {}, removed() {}, refsCanFollow() {} },
        fetchPage: async () => assert.fail("no page is fetched"),
        agentTool: tool,
    });
    service.initialize({ rootPath: root });
    // As the server's indexer does once initialized (lsp/indexing.ts).
    for (const found of await service.scan()) service.checkFound(found);
    return service;
}

describe("cancelling the long requests: stopped between files or annotations, nothing written", () => {
    it("Fix All Certain Repairs over three files, cancelled after the first: OperationCancelled, no edit, files unchanged", async () => {
        // Uncancelled, every file has certain repairs: a partial edit would show.
        const whole = await serviceOver(workspace());
        const result = await whole.repairWorkspace();
        assert.ok(result.ok, result.ok ? "" : result.message);
        assert.equal(result.checkedCount, 3);
        assert.equal(result.fileCount, 3, "each of the three files has certain repairs");
        assert.ok(result.refCount >= 3);

        const root = workspace();
        const before = snapshot(root);
        let finished = 0;
        const service = await serviceOver(root, async (...args) => {
            const outcome = await agentTool(...args);
            finished += 1;
            return outcome;
        });
        await assert.rejects(
            service.repairWorkspace(() => finished >= 1),
            (error) => error instanceof OperationCancelled,
        );
        assert.equal(finished, 1, "the first file was repaired, then the loop stopped");
        assert.deepEqual(snapshot(root), before);
    });

    it("Lock Refs, cancelled: OperationCancelled between annotations, and no lock written", async () => {
        const root = workspace();
        const service = await serviceOver(root);
        const uri = pathToFileURL(path.join(root, FILES[0])).href;
        let asked = 0;
        await assert.rejects(
            service.lockRefs({ uri, mode: "lock" }, () => ++asked > 1),
            (error) => error instanceof OperationCancelled,
        );
        assert.ok(asked > 1, "asked between the annotations");
        assert.equal(fs.existsSync(path.join(root, "answer.sourcecheck.lock.json")), false);
        // Uncancelled, the very request writes the lock.
        const locked = await service.lockRefs({ uri, mode: "lock" }, () => false);
        assert.equal(locked.written, true, locked.ok ? "" : locked.message);
        assert.equal(fs.existsSync(path.join(root, "answer.sourcecheck.lock.json")), true);
    });

    it("an agent tool that writes (repair --write), cancelled: OperationCancelled, no edit asked of the client", async () => {
        const root = workspace();
        const before = snapshot(root);
        const service = await serviceOver(root);
        const edits: WorkspaceEdit[] = [];
        const applyEdit = async (edit: WorkspaceEdit) => {
            edits.push(edit);
            return true;
        };
        const call = { name: "repair", input: { file: FILES[0], write: true } };
        await assert.rejects(
            service.agentTool(call, applyEdit, () => true),
            (error) => error instanceof OperationCancelled,
        );
        assert.deepEqual(edits, []);
        assert.deepEqual(snapshot(root), before);
        // Uncancelled, the same call asks for its edit.
        const done = await service.agentTool(call, applyEdit, () => false);
        assert.ok(done.ok, done.ok ? "" : done.error.message);
        assert.equal(edits.length, 1);
    });
});
