/**
 * sourcecheck.config.json in the language server (docs/config.md): a window on a parent folder
 * resolves a project's refs against the project's configuration folder, and a broken configuration
 * is shown on its token, then cleared when fixed.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { demoRoot, startClient } from "./harness";

function parentOfDemo(): string {
    const root = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "sourcecheck-config-"));
    fs.cpSync(demoRoot, path.join(root, "examples", "demo"), { recursive: true });
    fs.mkdirSync(path.join(root, "broken"));
    fs.writeFileSync(path.join(root, "broken", "sourcecheck.config.json"), '{\n  "exclude": "fixtures"\n}\n');
    fs.writeFileSync(path.join(root, "broken", "a.sourcecheck.json"), "[]");
    return root;
}

describe("project configuration in the language server", () => {
    it("resolves the demo against its own folder in a window on the whole tree, and shows a broken configuration until fixed", async () => {
        const root = parentOfDemo();
        const client = await startClient({ root, pull: false });
        try {
            const demo = await client.waitForPublished(client.uri("examples/demo/answer.sourcecheck.json"));
            assert.equal(demo.diagnostics.length, 7, "the demo's own broken refs only: every document found");
            assert.ok(!demo.diagnostics.some((d) => d.code === "unreadable-document" && /answer\.md/.test(d.message)));
            const configUri = client.uri("broken/sourcecheck.config.json");
            const shown = await client.waitForPublished(configUri, (p) => p.diagnostics.length === 1);
            const [diagnostic] = shown.diagnostics;
            assert.equal(diagnostic.code, "config");
            assert.equal(diagnostic.source, "sourcecheck");
            assert.deepEqual(diagnostic.range.start, { line: 1, character: 13 });
            assert.match(diagnostic.message, /exclude: must be an array of glob strings/);
            fs.writeFileSync(path.join(root, "broken", "sourcecheck.config.json"), '{ "exclude": ["fixtures"] }\n');
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [{ uri: configUri, type: 2 }],
            });
            await client.waitForPublished(configUri, (p) => p.diagnostics.length === 0);
            // Every problem of the file is shown, each on its token, not only the first.
            fs.writeFileSync(
                path.join(root, "broken", "sourcecheck.config.json"),
                '{\n  "exclude": "fixtures",\n  "annotationFiles": ["ok/**", ""],\n  "colour": 1\n}\n',
            );
            await client.connection.sendNotification("workspace/didChangeWatchedFiles", {
                changes: [{ uri: configUri, type: 2 }],
            });
            const all = await client.waitForPublished(configUri, (p) => p.diagnostics.length > 0);
            assert.deepEqual(
                all.diagnostics.map((d) => [d.range.start.line, d.message.replace(/ \(the annotation files.*$/, "")]),
                [
                    [1, "exclude: must be an array of glob strings"],
                    [2, "annotationFiles: every item must be a non-empty glob string"],
                    [3, 'unknown setting "colour": use annotationFiles, exclude, maxDocumentSize, sources or severity'],
                ],
            );
        } finally {
            await client.stop();
        }
    });
});
