import * as assert from "node:assert/strict";
import type { RepairEntry } from "../../server/src/core/repair";
import { applyCertainRepairs } from "../../server/src/core/repair";

const before = { path: "notes.md", start: { line: 2, str: "Faster" }, end: { line: 2, str: "lazily." } };
const entry = (after: RepairEntry["after"], certain = true, pointer = "/annotations/0/claim"): RepairEntry => ({
    annotation: 0,
    role: "claim",
    pointer,
    reason: "line-shift",
    certain,
    before,
    after,
    text: "Faster cold start: the runtime loads plugins lazily.",
    evidence: "test",
    evidenceKind: "search",
});

// A file as people write them: comments, odd indentation, keys in their own order, a trailing comma.
const file = `// answers of the week
{ "annotations": [
\t{
\t\t"sources": [], /* none yet */
\t\t"claim": {"end": {"str": "lazily.", "line": 2}, "path": "notes.md", "start": {"line": 2, "str": "Faster"}},
\t},
]}
`;

describe("applyCertainRepairs: only the values that change, in place", () => {
    it("rewrites just the changed tokens and keeps comments, indentation and key order", () => {
        const moved = { ...before, start: { line: 4, str: "Faster cold start" }, end: { line: 4, str: "lazily." } };
        const { text, applied } = applyCertainRepairs(file, [entry(moved)]);
        assert.equal(applied, 1);
        assert.equal(
            text,
            file.replace(
                `{"end": {"str": "lazily.", "line": 2}, "path": "notes.md", "start": {"line": 2, "str": "Faster"}}`,
                `{"end": {"str": "lazily.", "line": 4}, "path": "notes.md", "start": {"line": 4, "str": "Faster cold start"}}`,
            ),
        );
    });

    it("never writes an uncertain repair, nor a second repair of the same ref", () => {
        const one = { ...before, start: { line: 3, str: "Faster" }, end: { line: 3, str: "lazily." } };
        const other = { ...before, start: { line: 5, str: "Faster" }, end: { line: 5, str: "lazily." } };
        assert.deepEqual(applyCertainRepairs(file, [entry(one, false)]), { text: file, applied: 0 });
        const { text, applied } = applyCertainRepairs(file, [entry(one), entry(other)]);
        assert.equal(applied, 1);
        assert.ok(text.includes(`"line": 3`) && !text.includes(`"line": 5`));
    });

    it("counts a repair that changes nothing as not applied, and leaves text nested too deep alone", () => {
        assert.deepEqual(applyCertainRepairs(file, [entry(before)]), { text: file, applied: 0 });
        const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
        assert.deepEqual(applyCertainRepairs(deep, [entry(before)]), { text: deep, applied: 0 });
    });
});
