import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { CodeAction, Diagnostic, Hover, MarkupContent } from "vscode-languageserver-protocol";
import { main } from "../../server/src/cli";
import type { CliIo } from "../../server/src/cli/commands";
import { checkInput, parseJsonText, Session, SessionDocument } from "../../server/src/core";
import { type LockFile, parseLock } from "../../server/src/core/lock";
import type { LockRefsResult } from "../../shared/customProtocol";
import { applyEdits, type Edit, rangeOf, startClient, type TestClient } from "./harness";

const ANNOTATIONS = "a.sourcecheck.json";
const LOCK = "a.sourcecheck.lock.json";
const SENTENCE = "The service kept serving requests during the whole migration window last spring.";
const CHANGED = "The service continued to serve requests during the whole migration window last spring.";
const DOC = [
    "# Notes",
    "",
    SENTENCE,
    "Latency fell by 37% after the cache change.",
    "Unrelated filler line one.",
    "Unrelated filler line two.",
    "",
].join("\n");
const ANSWER = "The service stayed up during the migration.\n";

const claim = { path: "answer.md", start: { line: 1, str: "The service" }, end: { line: 1, str: "migration." } };
const serving = {
    path: "doc.md",
    start: { line: 3, str: "The service" },
    end: { line: 3, str: "spring." },
    polarity: "supports",
    confidence: 0.9,
};
const latency = {
    path: "doc.md",
    start: { line: 4, str: "Latency" },
    end: { line: 4, str: "change." },
    polarity: "supports",
    confidence: 0.7,
};

function workspace(): string {
    const root = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "sourcecheck-lock-editor-"));
    fs.writeFileSync(path.join(root, "doc.md"), DOC);
    fs.writeFileSync(path.join(root, "answer.md"), ANSWER);
    fs.writeFileSync(
        path.join(root, ANNOTATIONS),
        `${JSON.stringify({ annotations: [{ claim, sources: [serving] }] }, null, 2)}\n`,
    );
    return root;
}

function cliLock(root: string): void {
    const io: CliIo = {
        cwd: root,
        stdout() {},
        stderr() {},
        readStdin: () => Buffer.alloc(0),
        stdinIsPiped: false,
        version: "test",
    };
    main(["lock", ANNOTATIONS], io);
}

function readLock(root: string): LockFile {
    const parsed = parseLock(fs.readFileSync(path.join(root, LOCK), "utf8"), ANNOTATIONS);
    assert.ok(parsed.lock, JSON.stringify(parsed.error));
    return parsed.lock;
}

const lockedTexts = (lock: LockFile) => Object.values(lock.entries).map((e) => e.text);

describe("lock in the editor (server side)", function () {
    this.timeout(30000);
    let client: TestClient;
    let root: string;
    beforeEach(async () => {
        root = workspace();
        cliLock(root);
        client = await startClient({ root, pull: true });
    });
    afterEach(async () => {
        await client.stop();
    });

    const pullUntil = (uri: string, accept: (d: Diagnostic[]) => boolean) => client.pullUntil(uri, accept);

    const lockRefs = (params: object) => client.request<LockRefsResult>("sourcecheck/lockRefs", params);

    /** Open the annotation file and change the cited sentence in doc.md's buffer: one text-changed warning. */
    async function drift(docText: string): Promise<{ uri: string; warning: Diagnostic }> {
        const uri = await client.open(ANNOTATIONS, "sourcecheck");
        const doc = await client.open("doc.md");
        await client.change(doc, docText);
        const items = await pullUntil(uri, (d) => d.some((x) => x.code === "text-changed"));
        const warning = items.find((d) => d.code === "text-changed");
        assert.ok(warning, JSON.stringify(items));
        return { uri, warning };
    }

    async function actionsAt(uri: string, warning: Diagnostic): Promise<CodeAction[]> {
        return client.request<CodeAction[]>("textDocument/codeAction", {
            textDocument: { uri },
            range: warning.range,
            context: { diagnostics: [warning], only: ["quickfix"] },
        });
    }

    it("saving (update) locks a newly added ref and keeps the others' entries; without a lock it creates none unless asked", async () => {
        const before = readLock(root);
        const uri = await client.open(ANNOTATIONS, "sourcecheck");
        const added = `${JSON.stringify({ annotations: [{ claim, sources: [serving, latency] }] }, null, 2)}\n`;
        await client.change(uri, added);
        fs.writeFileSync(path.join(root, ANNOTATIONS), added); // as a save writes it
        const result = await lockRefs({ uri, mode: "update" });
        assert.equal(result.ok, true, JSON.stringify(result));
        assert.equal(result.written, true);
        assert.equal(result.hadLock, true);
        assert.equal(result.locked, 3);
        const after = readLock(root);
        for (const [key, entry] of Object.entries(before.entries)) assert.deepEqual(after.entries[key], entry);
        assert.ok(lockedTexts(after).includes("Latency fell by 37% after the cache change."));
        // Nothing changed since: the lock is left alone.
        const mtime = fs.statSync(path.join(root, LOCK)).mtimeMs;
        const again = await lockRefs({ uri, mode: "update" });
        assert.equal(again.written, false);
        assert.equal(fs.statSync(path.join(root, LOCK)).mtimeMs, mtime);

        fs.rmSync(path.join(root, LOCK));
        const none = await lockRefs({ uri, mode: "update" });
        assert.deepEqual([none.ok, none.written, none.hadLock], [true, false, false]);
        assert.equal(fs.existsSync(path.join(root, LOCK)), false, "saving never creates a lock by itself");
        const created = await lockRefs({ uri, mode: "update", create: true });
        assert.equal(created.written, true);
        assert.equal(Object.keys(readLock(root).entries).length, 3);
    });

    it("saving and Lock Refs keep a changed text as locked (only an accept takes it), and a bad lock is never overwritten", async () => {
        const { uri } = await drift(DOC.replace(SENTENCE, CHANGED));
        const saved = await lockRefs({ uri, mode: "update" });
        assert.equal(saved.changed, 1);
        assert.ok(lockedTexts(readLock(root)).includes(SENTENCE));
        assert.ok(!lockedTexts(readLock(root)).includes(CHANGED));
        const items = await client.pull(uri);
        assert.ok(
            items.some((d) => d.code === "text-changed"),
            "still reported",
        );
        const summary = await client.request<{ lock?: object }>("sourcecheck/fileSummary", { uri });
        assert.deepEqual(summary.lock, { locked: 1, changed: 1, unlocked: 0 });

        // Lock Refs never accepts silently: it counts the changed text, and the client asks the user.
        const asked = await lockRefs({ uri, mode: "lock" });
        assert.deepEqual([asked.ok, asked.changed, asked.accepted], [true, 1, 0]);
        assert.ok(lockedTexts(readLock(root)).includes(SENTENCE), "the locked text is kept until accepted");
        assert.ok(!lockedTexts(readLock(root)).includes(CHANGED));
        const locked = await lockRefs({ uri, mode: "lock", accept: true });
        assert.deepEqual([locked.written, locked.changed, locked.accepted], [true, 0, 1]);
        assert.ok(lockedTexts(readLock(root)).includes(CHANGED), "accepted, as sourcecheck lock --accept does");

        fs.writeFileSync(path.join(root, LOCK), "{ nope");
        const bad = await lockRefs({ uri, mode: "lock" });
        assert.equal(bad.ok, false);
        assert.match(bad.message ?? "", /^a\.sourcecheck\.lock\.json: the lock is not valid JSON/);
        assert.equal(fs.readFileSync(path.join(root, LOCK), "utf8"), "{ nope");
    });

    it("a text-changed ref: the hover shows the old and new text with the changed words; Accept updates its entry and clears the warning", async () => {
        const { uri, warning } = await drift(DOC.replace(SENTENCE, CHANGED));
        const text = client.text(uri);
        const hover = await client.request<Hover>("textDocument/hover", {
            textDocument: { uri },
            position: rangeOf(text, '"doc.md"').start,
        });
        const value = (hover.contents as MarkupContent).value;
        assert.match(value, /The cited text changed since it was locked/);
        assert.ok(value.includes(`Locked:\n\n\`\`\`text\n${SENTENCE}\n\`\`\``), value);
        assert.ok(value.includes(`Now:\n\n\`\`\`text\n${CHANGED}\n\`\`\``), value);
        assert.ok(
            value.includes("Changed words: The service ~~kept~~ **continued** ~~serving~~ **to** **serve** requests"),
            value,
        );

        const actions = await actionsAt(uri, warning);
        const accept = actions.find((a) => a.title === "Accept the new text (update the lock)");
        assert.ok(accept, JSON.stringify(actions.map((a) => a.title)));
        assert.equal(accept.command?.command, "sourcecheck.acceptChangedText");
        const args = accept.command?.arguments?.[0] as { uri: string; pointer: string };
        assert.deepEqual(args, { uri, pointer: "/annotations/0/sources/0" });
        assert.equal(
            actions.some((a) => a.title.startsWith("Re-anchor")),
            false,
            "the locked text is nowhere else",
        );

        const result = await lockRefs({ uri, mode: "accept", pointer: args.pointer });
        assert.equal(result.written, true, JSON.stringify(result));
        const texts = lockedTexts(readLock(root));
        assert.ok(texts.includes(CHANGED) && !texts.includes(SENTENCE), JSON.stringify(texts));
        const cleared = await pullUntil(uri, (d) => !d.some((x) => x.code === "text-changed"));
        assert.ok(!cleared.some((d) => d.code === "text-changed"), JSON.stringify(cleared));
        const nothing = await lockRefs({ uri, mode: "accept", pointer: args.pointer });
        assert.equal(nothing.ok, false, "nothing left to accept");
    });

    it("where the locked text is found elsewhere, Re-anchor moves the ref onto exactly the locked text", async () => {
        const moved = `${DOC.replace(SENTENCE, CHANGED)}More notes.\n${SENTENCE}\n`;
        const { uri, warning } = await drift(moved);
        const actions = await actionsAt(uri, warning);
        const reanchor = actions.find((a) => a.title.startsWith("Re-anchor to the locked text"));
        assert.ok(reanchor, JSON.stringify(actions.map((a) => a.title)));
        assert.equal(reanchor.title, "Re-anchor to the locked text on line 8");
        assert.equal(reanchor.isPreferred, true);
        const edits = reanchor.edit?.changes?.[uri] as Edit[];
        const next = applyEdits(client.text(uri), edits);
        // The oracle: the core resolves the new ref against the document as it is now.
        const session = new Session([new SessionDocument("doc.md", moved), new SessionDocument("answer.md", ANSWER)]);
        const checked = checkInput(parseJsonText(next).value, session);
        const source = checked.report.entries[0].sources[0];
        assert.ok(source.valid);
        assert.equal(source.text, SENTENCE);
        await client.change(uri, next);
        const items = await pullUntil(uri, (d) => !d.some((x) => x.code === "text-changed"));
        assert.ok(!items.some((d) => d.code === "text-changed"), "back on its locked text: no drift");
    });

    it("sourcecheck.lock.update never: the editor writes no lock and offers no Accept; drift is still reported", async () => {
        await client.stop();
        client = await startClient({ root, pull: true, settings: { lock: { update: "never" } } });
        const { uri, warning } = await drift(DOC.replace(SENTENCE, CHANGED));
        const before = fs.readFileSync(path.join(root, LOCK), "utf8");
        for (const mode of ["lock", "update", "accept"]) {
            const result = await lockRefs({ uri, mode, pointer: "/annotations/0/sources/0" });
            assert.equal(result.ok, false, mode);
            assert.equal(result.written, false, mode);
            assert.match(result.message ?? "", /sourcecheck\.lock\.update is never/);
        }
        assert.equal(fs.readFileSync(path.join(root, LOCK), "utf8"), before);
        const actions = await actionsAt(uri, warning);
        assert.ok(!actions.some((a) => a.title.startsWith("Accept")), JSON.stringify(actions.map((a) => a.title)));
    });

    it("a lock written or deleted on disk (the CLI, git) re-checks its annotation file at once", async () => {
        const uri = await client.open(ANNOTATIONS, "sourcecheck");
        const summary = () => client.request<{ lock?: object }>("sourcecheck/fileSummary", { uri });
        assert.deepEqual((await summary()).lock, { locked: 2, changed: 0, unlocked: 0 });
        fs.rmSync(path.join(root, LOCK));
        await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
            changes: [{ uri: client.uri(LOCK), type: 3 }],
        });
        // Asked again after each message from the server, until the file is checked without its lock.
        for (;;) {
            const next = client.nextMessage();
            if ((await summary()).lock === undefined) break;
            await next;
        }
    });
});
