/**
 * docs/library.md's example (examples/library/rag-check.js) runs against the built package, resolved
 * by its name as a user's `require("sourcecheck")` resolves it, and prints what the page says.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");

describe("library: docs/library.md's RAG example", () => {
    it("checks the model's annotations in memory and prints the broken ref the page shows, exit 1", () => {
        assert.ok(fs.existsSync(path.join(repo, "dist/index.js")), "the package is built (node scripts/build.mjs)");
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-library-example-"));
        fs.mkdirSync(path.join(dir, "node_modules"));
        fs.symlinkSync(repo, path.join(dir, "node_modules", "sourcecheck"), "dir");
        fs.copyFileSync(path.join(repo, "examples/library/rag-check.js"), path.join(dir, "rag-check.js"));
        const run = spawnSync(process.execPath, ["rag-check.js"], { cwd: dir, encoding: "utf8" });
        assert.equal(run.stderr, "");
        assert.equal(run.status, 1);
        const page = fs.readFileSync(path.join(repo, "docs/library.md"), "utf8");
        const shown = /it prints\n\n```\n([\s\S]*?)```/.exec(page);
        assert.ok(shown?.[1], "docs/library.md shows the output");
        assert.equal(run.stdout, shown[1]);
    });
});
