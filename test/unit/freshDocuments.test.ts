import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isDocumentFailure } from "../../server/src/core";
import { FreshDocuments } from "../../server/src/workspace/freshDocuments";

function tempRoot(): string {
    return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-fresh-")));
}

/** Written a while ago: timestamps older than the moments in which a same-size rewrite could hide. */
function settle(file: string): void {
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(file, past, past);
}

function contentOf(files: FreshDocuments, at: string): string {
    const entry = files.document(at);
    if (isDocumentFailure(entry)) assert.fail(`${at}: ${entry.code}`);
    return entry.content;
}

describe("fresh documents: kept while unchanged, read again when changed", () => {
    it("sees a rewrite of the same size, a replacement file and a deletion", () => {
        const root = tempRoot();
        const file = path.join(root, "a.md");
        fs.writeFileSync(file, "first\n");
        settle(file);
        const files = new FreshDocuments(root);
        assert.equal(contentOf(files, "a.md"), "first\n");
        assert.equal(files.document("a.md"), files.document("a.md"), "an unchanged file keeps its document");
        fs.writeFileSync(file, "other\n"); // same size
        assert.equal(contentOf(files, "a.md"), "other\n");
        fs.writeFileSync(file, "again\n"); // same size, maybe within the same clock tick
        assert.equal(contentOf(files, "a.md"), "again\n");
        fs.writeFileSync(file, "fifth\n");
        settle(file); // an old modification time again, but a new change time
        assert.equal(contentOf(files, "a.md"), "fifth\n");
        const replacement = path.join(root, "b.tmp");
        fs.writeFileSync(replacement, "third\n");
        fs.renameSync(replacement, file);
        assert.equal(contentOf(files, "a.md"), "third\n");
        fs.rmSync(file);
        const gone = files.document("a.md");
        assert.ok(isDocumentFailure(gone) && gone.code === "unreadable-document");
    });

    it("sees a missing file once it is created, and keeps refusing what leads outside the root", () => {
        const root = tempRoot();
        const outside = tempRoot();
        fs.writeFileSync(path.join(outside, "secret.md"), "secret\n");
        settle(root);
        const files = new FreshDocuments(root);
        const missing = files.document("later.md");
        assert.ok(isDocumentFailure(missing) && missing.code === "unreadable-document");
        assert.equal(files.document("later.md"), missing, "a known missing file is not looked up again");
        fs.writeFileSync(path.join(root, "later.md"), "now here\n");
        assert.equal(contentOf(files, "later.md"), "now here\n");
        // A file first read inside the root, then swapped for a symlink leading out.
        fs.writeFileSync(path.join(root, "swap.md"), "inside\n");
        settle(path.join(root, "swap.md"));
        assert.equal(contentOf(files, "swap.md"), "inside\n");
        fs.rmSync(path.join(root, "swap.md"));
        fs.symlinkSync(path.join(outside, "secret.md"), path.join(root, "swap.md"));
        const swapped = files.document("swap.md");
        assert.ok(isDocumentFailure(swapped) && swapped.code === "path-outside-root");
        const climbing = files.document("../x.md");
        assert.ok(isDocumentFailure(climbing) && climbing.code === "path-outside-root");
    });
});
