/**
 * No git process outside a work tree (server/src/workspace/gitRevision.ts): the check tool asks for
 * git's rename record on every call naming a missing document, and a spawn that can only fail cost
 * the demo's check 60 ms a call (bench/agents.mjs, "mcp check on the demo").
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { lastCommitOf, mayBeInWorkTree } from "../../server/src/workspace/gitRevision";

describe("git outside a work tree", () => {
    it("finds .git above a folder (a folder, or a worktree's file), and none in a bare temporary folder", () => {
        const bare = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sc-nogit-")));
        const saved = process.env.GIT_DIR;
        delete process.env.GIT_DIR;
        try {
            assert.equal(mayBeInWorkTree(path.join(bare, "deep", "er")), false);
            assert.equal(lastCommitOf(path.join(bare, "answer.sourcecheck.json")), undefined);
            fs.mkdirSync(path.join(bare, "repo", "sub"), { recursive: true });
            fs.writeFileSync(path.join(bare, "repo", ".git"), "gitdir: /elsewhere\n");
            assert.equal(mayBeInWorkTree(path.join(bare, "repo", "sub")), true);
            process.env.GIT_DIR = path.join(bare, "elsewhere");
            assert.equal(mayBeInWorkTree(path.join(bare, "deep")), true, "GIT_DIR points git elsewhere");
        } finally {
            if (saved === undefined) delete process.env.GIT_DIR;
            else process.env.GIT_DIR = saved;
            fs.rmSync(bare, { recursive: true, force: true });
        }
    });
});
