/**
 * `file:` URIs and paths on Node (workspace/uris.ts): node:url's conversions, remembered because every
 * check asks again for the URIs of the documents its file cites. A remembered answer is the one
 * node:url gives; a relative path, whose URI depends on the working folder, is never remembered.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FILE_URIS } from "../../server/src/workspace/uris";

describe("file URIs on Node", () => {
    it("answers as node:url, asked once or many times", () => {
        const absolute = path.join(os.tmpdir(), "sc uris", "报告 #1.md");
        for (let i = 0; i < 3; i++) {
            assert.equal(FILE_URIS.pathToUri(absolute), pathToFileURL(absolute).href);
            assert.equal(FILE_URIS.uriToPath(pathToFileURL(absolute).href), fileURLToPath(pathToFileURL(absolute)));
        }
        assert.equal(FILE_URIS.uriToPath("untitled:Untitled-1"), undefined);
        assert.equal(FILE_URIS.uriToPath("untitled:Untitled-1"), undefined);
    });

    it("a relative path's URI follows the working folder", () => {
        const before = process.cwd();
        const first = fs.mkdtempSync(path.join(os.tmpdir(), "sc-uris-a-"));
        const second = fs.mkdtempSync(path.join(os.tmpdir(), "sc-uris-b-"));
        try {
            process.chdir(first);
            assert.equal(FILE_URIS.pathToUri("notes.md"), pathToFileURL(path.join(first, "notes.md")).href);
            process.chdir(second);
            assert.equal(FILE_URIS.pathToUri("notes.md"), pathToFileURL(path.join(second, "notes.md")).href);
        } finally {
            process.chdir(before);
            fs.rmSync(first, { recursive: true, force: true });
            fs.rmSync(second, { recursive: true, force: true });
        }
    });
});
