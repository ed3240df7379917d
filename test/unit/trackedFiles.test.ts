/**
 * No build output in git (docs/install.md, "npm: the package `sourcecheck`"): a tracked file that .gitignore
 * matches is a build product someone committed, and packing would then modify tracked files.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");

/** Tracked files that the repository's ignore rules match (git's own reading of .gitignore). */
function trackedButIgnored(root: string): string[] {
    const out = execFileSync("git", ["ls-files", "--cached", "--ignored", "--exclude-standard", "-z"], {
        cwd: root,
        encoding: "utf8",
    });
    return out.split("\0").filter((file) => file !== "");
}

describe("tracked files", () => {
    it("none of the repository's tracked files matches .gitignore", () => {
        assert.deepEqual(trackedButIgnored(repo), []);
    });

    it("the check finds a committed build product (so the test above can fail)", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-tracked-"));
        try {
            const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
            git("init", "-q");
            fs.mkdirSync(path.join(dir, "build"));
            fs.writeFileSync(path.join(dir, "build", "pkg.tgz"), "x");
            fs.writeFileSync(path.join(dir, "kept.txt"), "x");
            git("add", "build/pkg.tgz", "kept.txt");
            fs.writeFileSync(path.join(dir, ".gitignore"), "build/\n");
            assert.deepEqual(trackedButIgnored(dir), ["build/pkg.tgz"]);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
