/**
 * `npm run lint`'s function-length rule (scripts/function-length.mjs): a function over 150 lines fails,
 * nested functions counting in the one that holds them, and the repository's server and client pass.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");
const script = path.join(repo, "scripts", "function-length.mjs");

function body(lines: number): string {
    return Array.from({ length: lines }, (_, i) => `    const v${i} = ${i};`).join("\n");
}

function run(args: string[]) {
    const result = spawnSync(process.execPath, [script, ...args], { cwd: repo, encoding: "utf8" });
    return { status: result.status, output: result.stderr + result.stdout };
}

describe("lint: function length", () => {
    it("fails on a function of 151 lines, names it with its line, and passes one of 150", function () {
        this.timeout(20000);
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sc-fnlen-"));
        // 148 body lines + the header and closing brace: exactly 150 lines.
        fs.writeFileSync(path.join(dir, "ok.ts"), `export function fits(): void {\n${body(148)}\n}\n`);
        assert.equal(run([dir]).status, 0);
        fs.writeFileSync(
            path.join(dir, "long.ts"),
            `// one line before\nexport const server = (): void => {\n    function inner(): void {}\n${body(148)}\n};\n`,
        );
        const { status, output } = run([dir]);
        assert.equal(status, 1, output);
        assert.match(output, /long\.ts:2: server is 151 lines \(at most 150\)/);
        assert.doesNotMatch(output, /ok\.ts/);
    });

    it("a method or constructor counts too", function () {
        this.timeout(20000);
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sc-fnlen-"));
        fs.writeFileSync(path.join(dir, "c.ts"), `class C {\n    constructor() {\n${body(149)}\n    }\n}\n`);
        const { status, output } = run([dir]);
        assert.equal(status, 1, output);
        assert.match(output, /c\.ts:2: constructor is 151 lines/);
    });

    it("passes on server/src and client/src", function () {
        this.timeout(60000);
        const { status, output } = run([]);
        assert.equal(status, 0, output);
    });
});
