/**
 * Every URI handled by its scheme (docs/web.md): `fsPath` means something only for a `file:` URI, and in
 * VS Code for the Web the workspace is another scheme. The client reads `fsPath` in one module,
 * client/src/uriPaths.ts, which checks the scheme first; this test holds every other client module to it
 * and checks what the helpers give on each scheme.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { URI } from "vscode-uri";
import { displayPath, fileSystemPath, filterPattern } from "../../client/src/uriPaths";

const repo = path.resolve(__dirname, "../../..");

function sourceFiles(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return entry.name === "test" ? [] : sourceFiles(full);
        return entry.name.endsWith(".ts") ? [full] : [];
    });
}

describe("URIs by scheme in the client", () => {
    it("no client module but uriPaths.ts reads fsPath", () => {
        const files = sourceFiles(path.join(repo, "client", "src"));
        assert.ok(files.length > 20, `only ${files.length} client modules found`);
        const offenders = files
            .filter((file) => path.basename(file) !== "uriPaths.ts")
            .flatMap((file) =>
                fs
                    .readFileSync(file, "utf8")
                    .split("\n")
                    .map((line, index) => ({ line, at: `${path.relative(repo, file)}:${index + 1}` }))
                    .filter(({ line }) => /\bfsPath\b/.test(line))
                    .map(({ at, line }) => `${at}: ${line.trim()}`),
            );
        assert.deepEqual(offenders, [], "use client/src/uriPaths.ts, which checks the scheme first");
    });

    it("a file: URI gives its file system path; any other scheme its URI or path, never a made-up file path", () => {
        const file = URI.file("/work/demo/answer.md") as unknown as import("vscode").Uri;
        const virtual = URI.parse("vscode-vfs://github/owner/repo/answer.md") as unknown as import("vscode").Uri;
        assert.equal(displayPath(file), "/work/demo/answer.md");
        assert.equal(filterPattern(file), "/work/demo/answer.md");
        assert.equal(fileSystemPath(file), "/work/demo/answer.md");
        assert.equal(displayPath(virtual), "vscode-vfs://github/owner/repo/answer.md");
        assert.equal(filterPattern(virtual), "/owner/repo/answer.md");
        assert.equal(fileSystemPath(virtual), undefined);
    });
});
