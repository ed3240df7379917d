import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");

/** The benchmark's own smoke run: tiny workloads, proving `npm run bench` still works end to end. */
function smoke(only: string): string {
    const run = spawnSync(process.execPath, ["--expose-gc", "bench/run.mjs", "--smoke", `--only=${only}`], {
        cwd: repo,
        encoding: "utf8",
        timeout: 120_000,
    });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout;
}

describe("benchmark smoke run", function () {
    this.timeout(180_000);

    it("measures the CLI against its floor and reports a scaling exponent", () => {
        const out = smoke("cli");
        assert.match(out, /cli check vs floor, 1000 annotations over 2 MB: ratio \d+(\.\d+)?/);
        assert.match(out, /cli scaling exponent 100 -> 1000 \(log-log slope\): ratio -?\d/);
        assert.match(out, /cli check peak RSS on 1000 annotations \(\d+(\.\d+)? MB of input\): \d+(\.\d+)? MB/);
    });

    it("measures the full check against JSON-schema validation with vscode-json-languageservice", () => {
        assert.match(
            smoke("schema"),
            /full check vs vscode-json-languageservice schema validation, 500 annotations: ratio \d/,
        );
    });

    it("measures MCP cite and check round trips against a no-op tool call", () => {
        const out = smoke("agents");
        assert.match(out, /mcp cite on the demo vs no-op tool call: ratio \d/);
        assert.match(out, /mcp check on the demo vs no-op tool call: ratio \d/);
    });
});
