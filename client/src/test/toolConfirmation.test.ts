// Which language model tool calls VS Code must confirm (pure). Run: npx tsc -p . && npx mocha out/client/src/test/*.test.js
import * as assert from "node:assert/strict";
import { confirmation, writes } from "../toolConfirmation";

describe("language model tools: confirmation before writing", () => {
    it("annotate with write: true writes, and its confirmation names the file and the claim's document", () => {
        assert.equal(writes("annotate", { file: "a.sourcecheck.json", write: true }), true);
        assert.equal(writes("annotate", { file: "a.sourcecheck.json" }), false);
        const asked = confirmation({ file: "a.sourcecheck.json", claim: { path: "answer.md" } }, "annotate");
        assert.match(asked.title, /annotation/);
        assert.match(asked.message, /`a\.sourcecheck\.json`/);
        assert.match(asked.message, /`answer\.md`/);
    });

    it("annotate with unsourced: true says it records the claim as searched with no source found", () => {
        const recorded = confirmation(
            { file: "a.sourcecheck.json", claim: { path: "answer.md" }, unsourced: true },
            "annotate",
        );
        assert.match(
            recorded.message,
            /^Record a claim of `answer\.md` as searched with no source found in `a\.sourcecheck\.json`/,
        );
        const removed = confirmation({ file: "a.sourcecheck.json", remove: 2, unsourced: true }, "annotate");
        assert.match(removed.message, /^Remove entry 2 of the unsourced list of `a\.sourcecheck\.json`/);
    });

    it("only repair, annotate and lock with write: true write", () => {
        assert.equal(writes("repair", { file: "a.sourcecheck.json", write: true }), true);
        assert.equal(writes("repair", { file: "a.sourcecheck.json", write: false }), false);
        assert.equal(writes("repair", { file: "a.sourcecheck.json", write: "true" }), false);
        assert.equal(writes("repair", { file: "a.sourcecheck.json" }), false);
        assert.equal(writes("lock", { file: "a.sourcecheck.json", write: true }), true);
        assert.equal(writes("lock", { file: "a.sourcecheck.json" }), false);
        assert.match(confirmation({ file: "a.sourcecheck.json" }, "lock").title, /lock/);
        for (const tool of ["check", "index", "cite", "evidence"]) assert.equal(writes(tool, { write: true }), false);
        assert.equal(writes("repair", null), false);
    });

    it("names the file, and a backtick in its name cannot break out of the code span", () => {
        assert.match(confirmation({ file: "notes/a.sourcecheck.json" }).message, /`notes\/a\.sourcecheck\.json`/);
        assert.ok(!confirmation({ file: "a`b" }).message.includes("a`b"));
        assert.match(confirmation({}).message, /the annotation file/);
    });
});
