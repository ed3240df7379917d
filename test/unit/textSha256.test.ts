/**
 * A lock's basis hashes files from the bytes as read (workspace/safeFile.ts) instead of encoding the
 * decoded text again: the two must be the same hash, or `check` would distrust every basis (and
 * silently lose its speed) for a file with a byte order mark, CRLF lines or non-ASCII text. The
 * oracle hashes the decoded text with node:crypto directly.
 */
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as fc from "fast-check";
import { changedDocuments } from "../../server/src/core/lock";
import { DiskDocuments, readDocumentUnderRoot } from "../../server/src/workspace/diskDocuments";
import { isLockOnBasis, readLockOnBasis } from "../../server/src/workspace/lockFiles";
import { readTextFile } from "../../server/src/workspace/safeFile";
import { sha256 } from "../../server/src/workspace/sha256";
import { runCli } from "./cliRun";

const oracle = (text: string) => createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");

const textArb = fc.record({
    lines: fc.array(fc.oneof(fc.string(), fc.constantFrom("naïve 报告 37%", "émoji 🙂", "plain words")), {
        maxLength: 6,
    }),
    bom: fc.boolean(),
    eol: fc.constantFrom("\n", "\r\n", "\r"),
});

describe("text hashes taken from the bytes (a lock's basis)", () => {
    let dir: string;
    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-textsha-"));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("readTextFile's textSha256 is the hash of the decoded text; a document's is of its normalised content or absent", () => {
        let cases = 0;
        let withCarriageReturns = 0;
        fc.assert(
            fc.property(textArb, ({ lines, bom, eol }) => {
                const body = lines.join(eol).replace(/\0/g, "");
                const file = path.join(dir, "doc.md");
                fs.writeFileSync(file, (bom ? "\ufeff" : "") + body, "utf8");
                const read = readTextFile(file, { textSha256: true });
                assert.ok(read.ok);
                assert.equal(read.text, body);
                assert.equal(read.textSha256, oracle(body));
                const doc = readDocumentUnderRoot(dir, "doc.md", { contentSha256: true });
                assert.ok(doc.ok);
                if (body.includes("\r")) {
                    withCarriageReturns++;
                    assert.equal(doc.contentSha256, undefined);
                } else assert.equal(doc.contentSha256, oracle(doc.content));
                cases++;
            }),
            { numRuns: 200 },
        );
        assert.equal(cases, 200);
        assert.ok(withCarriageReturns >= 20, `only ${withCarriageReturns} cases had CR line endings`);
    });

    it("a lock's basis holds for an annotation file with a byte order mark and a CRLF document", () => {
        fs.mkdirSync(path.join(dir, "docs"));
        fs.writeFileSync(path.join(dir, "docs/a.md"), "First line of naïve text.\r\nThe queue is 37% full.\r\n");
        fs.writeFileSync(path.join(dir, "docs/b.md"), "报告 says the cache is warm.\n");
        const annotations = {
            annotations: [
                {
                    claim: { path: "docs/b.md", start: { line: 1, str: "the cache" }, end: { line: 1, str: "warm" } },
                    sources: [
                        {
                            path: "docs/a.md",
                            start: { line: 2, str: "The queue" },
                            end: { line: 2, str: "full" },
                            polarity: "supports",
                            confidence: 0.9,
                        },
                    ],
                },
            ],
        };
        const file = path.join(dir, "a.sourcecheck.json");
        fs.writeFileSync(file, `\ufeff${JSON.stringify(annotations, null, 2)}\n`);
        assert.equal(runCli(["lock", "--root", dir, file], { cwd: dir }).status, 0);
        const text = fs.readFileSync(file, "utf8").replace(/^\ufeff/, "");
        const read = readLockOnBasis(file, () => sha256(text));
        assert.ok(isLockOnBasis(read), "the basis the lock command wrote does not hold for the file it read");
        assert.equal(changedDocuments(read.basis, new DiskDocuments(dir, { contentSha256: true }), sha256).size, 0);
        assert.equal(changedDocuments(read.basis, new DiskDocuments(dir), sha256).size, 0);
        const check = runCli(["check", "--locked", "--root", dir, file], { cwd: dir });
        assert.equal(check.status, 0, check.stdout + check.stderr);
    });
});
