import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");

describe("evidence benchmark smoke run", function () {
    this.timeout(180_000);

    it("runs every evidence case on a small scaling corpus, ours against the peer's figures", () => {
        const run = spawnSync(process.execPath, ["--expose-gc", "bench/run.mjs", "--smoke", "--only=evidence"], {
            cwd: repo,
            encoding: "utf8",
            timeout: 150_000,
            env: { ...process.env, SOURCECHECK_PEER_RAG: "" },
        });
        assert.equal(run.status, 0, run.stderr);
        const out = run.stdout;
        assert.match(out, /ours is compared with its recorded figures/);
        for (const name of [
            "cold build \\+ query",
            "warm query \\(nothing changed\\)",
            "warm query after one file changed",
        ]) {
            assert.match(out, new RegExp(`evidence ${name} vs the peer, 80 files, [\\d.]+ MB: ratio \\d`));
        }
        assert.match(out, /evidence peak RSS vs the peer, 80 files/);
        assert.match(out, /evidence index size vs corpus size, 80 files, [\d.]+ MB: ratio 0\.\d/);
        assert.match(out, /the floor of a warm run/);
        assert.match(out, /node -e 0: [\d.]+ s; the peer.s warm \/ node -e 0: [\d.]+/);
        assert.match(out, /tokenizer on the seed's cases: bigrams: gates pass, [\d.]+ ms per MB; words: gates pass/);
    });
});
