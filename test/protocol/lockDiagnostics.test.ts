import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { main } from "../../server/src/cli";
import type { CliIo } from "../../server/src/cli/commands";
import { checkInput, parseJsonText } from "../../server/src/core";
import { DiskDocuments } from "../../server/src/workspace/diskDocuments";
import { copyDemo, startClient, type TestClient } from "./harness";

const ANNOTATIONS = "answer.sourcecheck.json";

function lock(root: string): void {
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

describe("diagnostics with a lock (text-changed)", () => {
    let client: TestClient;
    let root: string;
    beforeEach(async () => {
        root = copyDemo();
        lock(root);
        client = await startClient({ root, pull: true });
    });
    afterEach(async () => {
        await client.stop();
    });

    const pullUntil = (uri: string, accept: (d: Diagnostic[]) => boolean) => client.pullUntil(uri, accept);

    it("an edit inside a cited span gives that ref a warning with the old and new text; undoing it clears it", async () => {
        const uri = await client.open(ANNOTATIONS, "sourcecheck");
        const before = await client.pull(uri);
        assert.ok(!before.some((d) => d.code === "text-changed"), "nothing changed yet");
        assert.ok(
            before.every((d) => d.severity === 1),
            "only the demo's errors",
        );
        // A valid source ref of the demo and the text it cites.
        const value = JSON.parse(fs.readFileSync(path.join(root, ANNOTATIONS), "utf8"));
        const result = checkInput(parseJsonText(JSON.stringify(value)).value, new DiskDocuments(root));
        const entry = result.report.entries.flatMap((e) => e.sources).find((s) => s.valid && /\w{5,}/.test(s.text));
        assert.ok(entry?.valid);
        const word = entry.text.match(/\w{5,}/)![0];
        const doc = await client.open(entry.path);
        const original = client.text(doc);
        const lines = original.split("\n");
        const at = entry.range.start.line - 1;
        lines[at] =
            lines[at].slice(0, entry.range.start.column) +
            lines[at].slice(entry.range.start.column).replace(word, `${word}Z`);
        await client.change(doc, lines.join("\n"));
        const changed = await pullUntil(uri, (d) => d.some((x) => x.code === "text-changed"));
        const drift = changed.filter((d) => d.code === "text-changed");
        assert.ok(drift.length >= 1, JSON.stringify(changed));
        for (const d of drift) {
            assert.equal(d.severity, 2, "a warning");
            // The changed word itself, in the Problems panel's message (not cut out of a quoted text).
            assert.ok(
                d.message.startsWith("the cited text changed since it was locked: ") &&
                    new RegExp(`\\[-\\S*${word}\\S*-\\]\\{\\+\\S*${word}Z\\S*\\+\\}`).test(d.message),
                d.message,
            );
        }
        await client.change(doc, original);
        const restored = await pullUntil(uri, (d) => !d.some((x) => x.code === "text-changed"));
        assert.ok(!restored.some((d) => d.code === "text-changed"));
    });

    it("a lock that is not valid JSON is a problem in the file, not silence", async () => {
        fs.writeFileSync(path.join(root, "answer.sourcecheck.lock.json"), "{ nope");
        const uri = await client.open(ANNOTATIONS, "sourcecheck");
        const items = await client.pull(uri);
        const problem = items.find((d) => d.code === "lock-invalid-json");
        assert.ok(problem, JSON.stringify(items.map((d) => d.code)));
        assert.match(problem.message, /^answer\.sourcecheck\.lock\.json: the lock is not valid JSON/);
    });
});
