import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { cleanSlate, codeOf, hoverText, prepare, restoreText, tokenRange, waitForDiagnostics } from "./demo";
import { waitFor, wsUri } from "./harness";

// The suite writes its own annotation file and document (earlier suites leave the demo's refs in
// states of their own) and deletes them, and the lock, when it is done.
const FOLDER = "lock-e2e";
const DOC = `${FOLDER}/notes.md`;
const ANNOTATIONS = `${FOLDER}/notes.sourcecheck.json`;
const LOCK = `${FOLDER}/notes.sourcecheck.lock.json`;
const SENTENCE = "Offline sync: mobile clients queue changes while offline and sync when reconnected.";
const ADDED = "The scheduler gained priority queues.";
const TEXT = `# Notes\n\n${SENTENCE}\n${ADDED}\n`;
const ref = (line: number, start: string, end: string) => ({
    path: DOC,
    start: { line, str: start },
    end: { line, str: end },
});
const FILE = {
    annotations: [
        {
            claim: ref(1, "#", "Notes"),
            sources: [{ ...ref(3, "Offline sync", "reconnected."), polarity: "supports", confidence: 0.9 }],
        },
    ],
};
const SOURCE = ["annotations", 0, "sources", 0];

interface LockRefsResult {
    ok: boolean;
    message?: string;
    written: boolean;
    locked: number;
    changed?: number;
    accepted?: number;
}
interface KeeperLog {
    saves: { uri: string; result: LockRefsResult }[];
    offers: unknown[];
    accepts: { uri: string; changed: number; answer: string | undefined }[];
}

/** The SourceCheck view's line for the suite's annotation file (the e2e hook `sourcecheck._viewSnapshot`). */
async function viewLine(): Promise<string | undefined> {
    const snapshot = await vscode.commands.executeCommand<{
        files: { uri: string; description: string; tooltip?: string }[];
    }>("sourcecheck._viewSnapshot");
    const file = snapshot.files.find((f) => f.uri === wsUri(ANNOTATIONS).toString());
    return file && `${file.description} | ${file.tooltip ?? ""}`;
}

async function lockedTexts(): Promise<(string | undefined)[]> {
    try {
        const lock = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(wsUri(LOCK))).toString("utf8"));
        return Object.values(lock.entries as Record<string, { text?: string }>).map((e) => e.text);
    } catch {
        return [];
    }
}

async function openFixture(): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(wsUri(ANNOTATIONS));
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc;
}

describe("locks in the editor", () => {
    before(async () => {
        await prepare();
        await vscode.workspace.fs.writeFile(wsUri(DOC), Buffer.from(TEXT));
        await vscode.workspace.fs.writeFile(wsUri(ANNOTATIONS), Buffer.from(`${JSON.stringify(FILE, null, 2)}\n`));
    });

    after(async () => {
        // Leave the workspace as found: buffers reverted, the suite's files and the lock gone.
        await cleanSlate();
        // One by one: the server forgets an annotation file on its own deletion event.
        for (const file of [ANNOTATIONS, LOCK, DOC]) {
            await vscode.workspace.fs.delete(wsUri(file)).then(
                () => undefined,
                () => undefined,
            );
        }
        await vscode.workspace.fs.delete(wsUri(FOLDER), { recursive: true });
        await vscode.commands.executeCommand("sourcecheck._lockKeeper", { offer: false, answer: null });
        for (const file of [ANNOTATIONS, LOCK, DOC]) {
            const gone = await vscode.workspace.fs.stat(wsUri(file)).then(
                () => false,
                () => true,
            );
            assert.ok(gone, `${file} was not deleted`);
        }
    });

    it("Lock Refs writes the lock; saving the file after adding a source updates it", async () => {
        const doc = await openFixture();
        const original = doc.getText();
        const locked = await vscode.commands.executeCommand<LockRefsResult>("sourcecheck.lockRefs", doc.uri.toString());
        assert.equal(locked.ok, true, JSON.stringify(locked));
        assert.equal(locked.written, true);
        assert.equal(locked.locked, 2, "the claim and the source");
        assert.ok((await lockedTexts()).includes(SENTENCE), "the lock holds what the source cites");
        assert.ok(!(await lockedTexts()).includes(ADDED));
        // The view counts the refs of the file against its lock.
        await waitFor(
            "the view to count the locked refs",
            viewLine,
            (line) =>
                line?.startsWith(
                    "1 annotation · locked | Lock: 2 refs locked, 0 changed since locked, 0 not locked",
                ) === true,
            15_000,
        );

        const notes = await vscode.workspace.openTextDocument(wsUri(DOC));
        try {
            const result = await vscode.commands.executeCommand<{ ok: boolean; message?: string }>(
                "sourcecheck.addSelectionAsSupportingSource",
                {
                    annotationFile: doc.uri.toString(),
                    annotation: 1,
                    confidence: 0.5,
                    uri: notes.uri.toString(),
                    range: { start: { line: 3, character: 0 }, end: { line: 3, character: ADDED.length } },
                },
            );
            assert.equal(result.ok, true, JSON.stringify(result));
            const before = (await vscode.commands.executeCommand<KeeperLog>("sourcecheck._lockKeeper")).saves.length;
            assert.ok(await doc.save(), "saved");
            // The server writes the lock before its reply reaches the client's log: wait for the reply.
            const saveOf = (log: KeeperLog) => log.saves.slice(before).find((s) => s.uri === doc.uri.toString());
            const log = await waitFor(
                "the client's record of the save's lock update",
                () => vscode.commands.executeCommand<KeeperLog>("sourcecheck._lockKeeper"),
                (l) => saveOf(l) !== undefined,
                15_000,
            );
            assert.equal(saveOf(log)?.result.written, true, JSON.stringify(log.saves.slice(before)));
            assert.ok((await lockedTexts()).includes(ADDED), "the lock holds the added source");
            assert.deepEqual(log.offers, [], "no offer: the file has a lock (and tests never see one unasked)");
            assert.ok((await lockedTexts()).includes(SENTENCE), "the other entries stay");
        } finally {
            await restoreText(doc, original);
        }
        await waitFor("the lock updated again", lockedTexts, (texts) => !texts.includes(ADDED), 15_000);
    });

    it("a changed cited text: a warning on the ref, a hover with the old and new text, and Accept updates the lock", async () => {
        const doc = await openFixture();
        if (!(await lockedTexts()).includes(SENTENCE)) {
            await vscode.commands.executeCommand("sourcecheck.lockRefs", doc.uri.toString());
        }
        const notes = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wsUri(DOC)), {
            preview: false,
            viewColumn: vscode.ViewColumn.Beside,
        });
        const at = notes.document.lineAt(2).text.indexOf("queue");
        assert.ok(at > 0);
        assert.ok(await notes.edit((b) => b.replace(new vscode.Range(2, at, 2, at + 5), "buffer")));
        const changed = SENTENCE.replace("queue", "buffer");
        const token = tokenRange(doc, SOURCE);
        const diagnostics = await waitForDiagnostics(
            doc.uri,
            (ds) => ds.some((d) => codeOf(d) === "text-changed" && token.contains(d.range)),
            "the text-changed warning on the source",
        );
        const warning = diagnostics.find((d) => codeOf(d) === "text-changed" && token.contains(d.range))!;
        assert.equal(warning.severity, vscode.DiagnosticSeverity.Warning);
        await waitFor(
            "the view to count the changed ref",
            viewLine,
            (line) =>
                line?.startsWith(
                    "1 annotation · 1 changed since locked | Lock: 1 ref locked, 1 changed since locked, 0 not locked",
                ) === true,
            15_000,
        );

        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
            "vscode.executeHoverProvider",
            doc.uri,
            tokenRange(doc, [...SOURCE, "path"]).start.translate(0, 2),
        );
        const text = hoverText(hovers);
        assert.match(text, /The cited text changed since it was locked/);
        assert.ok(text.includes(`Locked:\n\n\`\`\`text\n${SENTENCE}\n\`\`\``), text);
        assert.ok(text.includes(`Now:\n\n\`\`\`text\n${changed}\n\`\`\``), text);
        assert.match(text, /~~queue~~ \*\*buffer\*\*/);

        const actions =
            (await vscode.commands.executeCommand<vscode.CodeAction[]>(
                "vscode.executeCodeActionProvider",
                doc.uri,
                warning.range,
            )) ?? [];
        const accept = actions.find((a) => a.title === "Accept the new text (update the lock)");
        assert.ok(accept?.command, JSON.stringify(actions.map((a) => a.title)));
        assert.ok(accept.kind?.contains(vscode.CodeActionKind.QuickFix));
        const result = await vscode.commands.executeCommand<LockRefsResult>(
            accept.command.command,
            ...(accept.command.arguments ?? []),
        );
        assert.equal(result.ok, true, JSON.stringify(result));
        await waitForDiagnostics(
            doc.uri,
            (ds) => !ds.some((d) => codeOf(d) === "text-changed"),
            "the warning gone once the new text is locked",
        );
        const texts = await lockedTexts();
        assert.ok(texts.includes(changed) && !texts.includes(SENTENCE), JSON.stringify(texts));
    });

    it("Lock Refs over a changed cited text asks before accepting it: kept on No, locked on Yes", async () => {
        const doc = await openFixture();
        const notes = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(wsUri(DOC)), {
            preview: false,
            viewColumn: vscode.ViewColumn.Beside,
        });
        const before = await lockedTexts();
        const line = notes.document.lineAt(2).text;
        const at = line.indexOf("changes");
        assert.ok(at > 0, line);
        assert.ok(await notes.edit((b) => b.replace(new vscode.Range(2, at, 2, at + 7), "edits")));
        const now = line.replace("changes", "edits");
        await waitForDiagnostics(doc.uri, (ds) => ds.some((d) => codeOf(d) === "text-changed"), "text-changed");
        const lockRefs = () =>
            vscode.commands.executeCommand<LockRefsResult>("sourcecheck.lockRefs", doc.uri.toString());
        try {
            await vscode.commands.executeCommand("sourcecheck._lockKeeper", { acceptAnswer: "keep" });
            const kept = await lockRefs();
            assert.deepEqual([kept.ok, kept.changed, kept.accepted], [true, 1, 0], JSON.stringify(kept));
            let log = await vscode.commands.executeCommand<KeeperLog>("sourcecheck._lockKeeper");
            assert.deepEqual(log.accepts.at(-1), { uri: doc.uri.toString(), changed: 1, answer: "keep" });
            assert.deepEqual(await lockedTexts(), before, "no silent accept: the locked text stays");

            await vscode.commands.executeCommand("sourcecheck._lockKeeper", { acceptAnswer: "accept" });
            const accepted = await lockRefs();
            assert.deepEqual(
                [accepted.ok, accepted.changed, accepted.accepted],
                [true, 0, 1],
                JSON.stringify(accepted),
            );
            log = await vscode.commands.executeCommand<KeeperLog>("sourcecheck._lockKeeper");
            assert.deepEqual(log.accepts.at(-1), { uri: doc.uri.toString(), changed: 1, answer: "accept" });
            assert.ok((await lockedTexts()).includes(now), JSON.stringify(await lockedTexts()));
        } finally {
            await vscode.commands.executeCommand("sourcecheck._lockKeeper", { acceptAnswer: null });
        }
    });
});
