// The corpus walk decides most files by name alone (workspace/corpusRules.ts): held here to the one
// rule it stands in for, AnnotationRecognizer.kind with the folder's configuration and `sources`.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { AnnotationRecognizer, kindByName } from "../../server/src/workspace/discovery";
import { listCorpus } from "../../server/src/workspace/evidenceStore";
import { nodeProjectConfigs } from "../../server/src/workspace/nodeConfigs";

const SUFFIXES = [
    ".sourcecheck.json",
    ".annotations.json",
    ".lock.json",
    ".notes.md",
    ".notes.txt",
    ".trace.jsonl",
    ".md",
    "",
];

describe("corpus files decided by name", () => {
    it("kindByName agrees with the recognizer without globs on 2,000 generated names", () => {
        const recognizer = new AnnotationRecognizer();
        let cases = 0;
        const name = fc
            .tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom(...SUFFIXES), fc.boolean())
            .map(([stem, suffix, upper]) => stem.replace(/[/\\]/g, "_") + (upper ? suffix.toUpperCase() : suffix))
            .filter((n) => n !== "." && n !== "..");
        fc.assert(
            fc.property(name, (n) => {
                cases++;
                assert.equal(kindByName(n), recognizer.kind(path.join("/w", n)), n);
            }),
            { numRuns: 2000 },
        );
        assert.equal(cases, 2000);
    });

    it("lists what the recognizer and `sources` choose, folder by folder, with and without a configuration", () => {
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sc-corpus-kinds-")));
        const files = [
            "a.md",
            "a.sourcecheck.json",
            "x.notes.md",
            "cfg/keep/k.md",
            "cfg/keep/c.ann.md",
            "cfg/drop.md",
            "cfg/d.ann.md",
            "cfg/z.lock.json",
            "plain/p.md",
            "plain/q.trace.jsonl",
            "plain/r.annotations.json",
        ];
        for (const file of files) {
            fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
            fs.writeFileSync(path.join(root, file), "text\n");
        }
        const config = { annotationFiles: ["**/*.ann.md"], sources: ["keep/**"] };
        fs.writeFileSync(path.join(root, "cfg", "sourcecheck.config.json"), JSON.stringify(config));
        // The oracle: every file through the recognizer with its configuration, then `sources`.
        const configs = nodeProjectConfigs();
        const recognizer = new AnnotationRecognizer([], configs);
        const documents: string[] = [];
        const annotations: string[] = [];
        for (const file of [...files, "cfg/sourcecheck.config.json"]) {
            const absolute = path.join(root, file);
            const kind = recognizer.kind(absolute, file);
            if (kind === "annotation") annotations.push(file);
            else if (kind === "document" && configs.isSource(absolute)) documents.push(file);
        }
        assert.deepEqual(documents.sort(), ["a.md", "cfg/keep/k.md", "plain/p.md"], "the oracle itself");
        const found: { path: string; absolute: string }[] = [];
        assert.deepEqual(
            listCorpus(root, {}, found).map((f) => f.path),
            documents,
        );
        assert.deepEqual(found.map((f) => f.path).sort(), annotations.sort());
        assert.deepEqual(annotations.sort(), [
            "a.sourcecheck.json",
            "cfg/d.ann.md",
            "cfg/keep/c.ann.md",
            "plain/r.annotations.json",
        ]);
    });
});
