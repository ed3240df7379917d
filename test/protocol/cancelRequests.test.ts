/**
 * The long custom requests cancelled over the protocol (docs/custom-protocol.md, "Cancellation"):
 * "Fix All Certain Repairs in Workspace", Lock Refs and an agent tool that writes answer as LSP
 * expects, a ResponseError with RequestCancelled, and leave every file as it was (read back from the
 * disk). Uncancelled, the same requests change something, so a partial write would show. Stopping
 * exactly after the first of several files is test/unit/cancelRequests.test.ts.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { LSPErrorCodes, ResponseError } from "vscode-languageserver-protocol";
import { CancellationTokenSource } from "vscode-languageserver-protocol/node";
import { copyDemo, startClient, type TestClient, uriOf } from "./harness";

const FILES = ["answer.sourcecheck.json", "second.sourcecheck.json", "third.sourcecheck.json"];

/** Every file under the root and its bytes. */
function snapshot(root: string): Map<string, string> {
    const files = new Map<string, string>();
    for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        files.set(path.relative(root, file), fs.readFileSync(file, "utf8"));
    }
    return files;
}

describe("cancelling the long custom requests", () => {
    let client: TestClient;
    let root: string;
    before(async () => {
        root = copyDemo();
        // The demo's annotations (their broken refs have certain repairs), 100 times over, in each file.
        const { annotations } = JSON.parse(fs.readFileSync(path.join(root, FILES[0]), "utf8"));
        const text = `${JSON.stringify({ annotations: Array.from({ length: 100 }, () => annotations).flat() }, null, 2)}\n`;
        for (const name of FILES) fs.writeFileSync(path.join(root, name), text);
        client = await startClient({ root, pull: true });
    });
    after(async () => {
        await client.stop();
    });

    /**
     * Send a request and cancel it at once; its answer, or the error it failed with. Each file has
     * hundreds of annotations: the work spans many turns, and the cancellation, sent right behind the
     * request, is read long before its end (as Find Sources is cancelled: test/protocol/evidence.test.ts).
     */
    async function cancelled(method: string, params: unknown): Promise<unknown> {
        const source = new CancellationTokenSource();
        const answer = client.connection.sendRequest(method, params, source.token);
        source.cancel();
        return answer.then(
            (result) => result,
            (error: unknown) => error,
        );
    }

    function assertCancelled(answer: unknown): void {
        assert.ok(answer instanceof ResponseError, `a ResponseError, not ${JSON.stringify(answer)}`);
        assert.equal(answer.code, LSPErrorCodes.RequestCancelled);
    }

    it("Fix All Certain Repairs in Workspace: RequestCancelled, no file changed; uncancelled it repairs all three", async () => {
        const before = snapshot(root);
        assertCancelled(await cancelled("sourcecheck/repairWorkspace", {}));
        assert.deepEqual(snapshot(root), before);
        const whole = (await client.request("sourcecheck/repairWorkspace", {})) as {
            ok: boolean;
            fileCount: number;
            refCount: number;
        };
        assert.equal(whole.ok, true);
        assert.equal(whole.fileCount, 3);
    });

    it("Lock Refs: RequestCancelled and no lock written; uncancelled it writes the lock", async () => {
        const uri = uriOf(root, FILES[1]);
        const lock = path.join(root, "second.sourcecheck.lock.json");
        assertCancelled(await cancelled("sourcecheck/lockRefs", { uri, mode: "lock" }));
        assert.equal(fs.existsSync(lock), false);
        const locked = (await client.request("sourcecheck/lockRefs", { uri, mode: "lock" })) as { written: boolean };
        assert.equal(locked.written, true);
        assert.equal(fs.existsSync(lock), true);
    });

    it("an agent tool that writes (repair --write): RequestCancelled, no edit asked of the client", async () => {
        const before = snapshot(root);
        const call = { name: "repair", input: { file: FILES[2], write: true } };
        assertCancelled(await cancelled("sourcecheck/agentTool", call));
        assert.deepEqual(snapshot(root), before);
    });
});
