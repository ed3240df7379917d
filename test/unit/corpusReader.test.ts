import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type RawFile, readFiles } from "../../server/src/workspace/corpusReader";
import { openIndex } from "../../server/src/workspace/evidenceStore";

/** What a read gave, comparable across threads: kind, stat and a digest of the bytes. */
function seen(paths: string[], maxBytes: number, minFilesForWorker: number): { out: string[]; onWorkers: number } {
    const out: string[] = [];
    const onWorkers = readFiles(
        paths,
        maxBytes,
        (at, file: RawFile) => {
            const bytes = file.kind === "read" ? createHash("sha1").update(file.bytes).digest("hex") : "";
            const stat = file.kind === "gone" ? "" : `${file.size}/${file.mtimeMs}/${file.ino}`;
            out.push(`${at} ${file.kind} ${stat} ${bytes}`);
        },
        { minFilesForWorker },
    );
    return { out, onWorkers };
}

describe("corpus reader", () => {
    it("reads on worker threads exactly what it reads on this thread, in the order asked", () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-reader-"));
        const paths: string[] = [];
        for (let i = 0; i < 700; i++) {
            const file = path.join(dir, `f${i}.md`);
            // Sizes from empty to 40 KB, so batches end by file count and by bytes.
            fs.writeFileSync(
                file,
                `# File ${i}\n\n${"word ".repeat((i * 97) % 8000)}\n`.slice(0, i % 50 === 0 ? 0 : undefined),
            );
            paths.push(file);
        }
        fs.writeFileSync(path.join(dir, "big.md"), "b".repeat(1_500_000)); // past one batch's buffer
        fs.writeFileSync(path.join(dir, "huge.md"), "h".repeat(2_100_000)); // past maxBytes
        fs.writeFileSync(path.join(dir, "binary.bin"), Buffer.from([1, 0, 2, 0]));
        fs.mkdirSync(path.join(dir, "folder"));
        fs.symlinkSync(path.join(dir, "f1.md"), path.join(dir, "link.md"));
        const odd = ["big.md", "huge.md", "binary.bin", "folder", "link.md", "missing.md"].map((n) =>
            path.join(dir, n),
        );
        paths.splice(300, 0, ...odd);
        paths.push(...odd);
        const here = seen(paths, 2_000_000, Number.POSITIVE_INFINITY);
        const there = seen(paths, 2_000_000, 1);
        assert.equal(here.onWorkers, 0);
        assert.equal(there.onWorkers, paths.length, "every file read on the workers");
        assert.equal(here.out.length, paths.length);
        assert.deepEqual(there.out, here.out);
        const kinds = (list: string[]) => list.slice(300, 306).map((line) => line.split(" ")[1]);
        assert.deepEqual(kinds(here.out), ["read", "too-big", "read", "gone", "gone", "gone"]);
        fs.rmSync(dir, { recursive: true, force: true });
    });

    it("builds the same index file whether the corpus is read on workers or here", () => {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-reader-"));
        const corpus = path.join(root, "corpus");
        fs.mkdirSync(corpus);
        const fixtures = path.resolve(__dirname, "../../../test/fixtures/evidence/corpus");
        const names = fs.readdirSync(fixtures);
        for (let i = 0; i < 150; i++)
            for (const name of names) fs.copyFileSync(path.join(fixtures, name), path.join(corpus, `c${i}-${name}`));
        fs.writeFileSync(path.join(corpus, "image.png"), Buffer.from([137, 80, 0, 0]));
        const built = (minFilesForWorker: number) => {
            const indexDir = path.join(root, `index-${minFilesForWorker}`);
            const opened = openIndex(corpus, indexDir, { minFilesForWorker });
            return { report: opened.report, bytes: fs.readFileSync(opened.indexFile) };
        };
        const here = built(Number.MAX_SAFE_INTEGER);
        const there = built(1);
        assert.equal(here.report.added, 601);
        assert.deepEqual(there.report, here.report);
        assert.ok(there.bytes.equals(here.bytes), "the same index bytes");
        fs.rmSync(root, { recursive: true, force: true });
    });
});
