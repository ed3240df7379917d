/**
 * One numbering for people (docs/contract.md section 5): annotations and sources count from 1 in everything a
 * person reads; JSON Pointers and machine output stay 0-based. Two halves: the helpers' readings,
 * and a walk over every user-facing producer's source (client, language server, CLI, HTML report)
 * that fails when a sentence numbers an annotation or source from a raw 0-based index.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { annotationLabel, plural, pointerForPeople, pointerWithReading, sourceLabel } from "../../shared/numbering";

const repo = path.resolve(__dirname, "../../..");

describe("numbering for people", () => {
    it("reads pointers with 1-based numbers", () => {
        const cases: [string, string][] = [
            ["/annotations/8/sources", "annotation 9, sources"],
            ["/annotations/3/sources/0/polarity", "annotation 4, source 1, polarity"],
            ["/annotations/0/claim/start/str", "annotation 1, claim, start, str"],
            ["/session/documents/2/path", "session, document 3, path"],
            ["/0/sources/1", "annotation 1, source 2"],
            ["/annotations", "annotations"],
            ["", "the file"],
            ["/a~1b/c~0d", "a/b, c~d"],
        ];
        for (const [pointer, reading] of cases) assert.equal(pointerForPeople(pointer), reading, pointer);
        assert.equal(pointerWithReading("/annotations/8/sources"), "/annotations/8/sources (annotation 9, sources)");
        assert.equal(annotationLabel(8), "annotation 9");
        assert.equal(annotationLabel(0, true), "Annotation 1");
        assert.equal(sourceLabel(0), "source 1");
        assert.equal(plural(1, "page"), "1 page");
        assert.equal(plural(2, "page"), "2 pages");
        assert.equal(plural(0, "citation"), "0 citations");
    });

    /** Every .ts file whose strings reach a person (tests and the quote formats' own numbering excluded). */
    function producers(): string[] {
        const roots = ["client/src", "server/src", "shared"];
        const files: string[] = [];
        const walk = (dir: string) => {
            for (const entry of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
                const rel = path.posix.join(dir, entry.name);
                if (entry.isDirectory()) {
                    // client/src/test: unit tests of the client; server/src/quotes: TraceCite's own 1-based claim ids.
                    if (rel === "client/src/test" || rel === "server/src/quotes") continue;
                    walk(rel);
                } else if (rel.endsWith(".ts") && rel !== "shared/numbering.ts") files.push(rel);
            }
        };
        for (const root of roots) walk(root);
        return files;
    }

    it("walks every user-facing string producer: no sentence numbers an annotation or source from a raw index", () => {
        const files = producers();
        assert.ok(files.length > 100, `found ${files.length} producer files`);
        const offences: string[] = [];
        let templates = 0;
        const indexLike = /index|Index|role|annotation\b|\bi\b|\bj\b/;
        for (const file of files) {
            const lines = fs.readFileSync(path.join(repo, file), "utf8").split("\n");
            lines.forEach((line, n) => {
                if (/^\s*(\/\/|\*)/.test(line)) return;
                const where = `${file}:${n + 1}: ${line.trim()}`;
                // "annotation ${…}", "source ${…}", "claim ${…}" in a sentence: through the helpers only.
                for (const m of line.matchAll(/\b(?:[Aa]nnotation|[Ss]ource|[Cc]laim)s? \$\{([^}]*)\}/g)) {
                    templates++;
                    if (indexLike.test(m[1]) && !/^ordinal\(/.test(m[1])) offences.push(where);
                }
                // "${index + 1}" spelled by hand next to an index: the helpers do it, once.
                for (const m of line.matchAll(/\$\{([^}]*)\+ 1\}/g)) {
                    templates++;
                    if (indexLike.test(m[1])) offences.push(where);
                }
                // A pointer shown in a sentence carries its reading for people.
                if (
                    /`[^`]*\bat \\?`?\$\{[^}]*[Pp]ointer[^}]*\}/.test(line) &&
                    !/pointerForPeople|pointerWithReading/.test(line)
                )
                    offences.push(where);
                // An index put in a sentence raw: "annotation " + index.
                if (/["'`](?:[Aa]nnotation|[Ss]ource) ["'`]\s*\+\s*\w*[Ii]ndex/.test(line)) offences.push(where);
            });
        }
        assert.ok(templates >= 10, `looked at ${templates} numbered templates`);
        assert.deepEqual(offences, [], `numbered from a raw index:\n${offences.join("\n")}`);
    });

    it("the demo README counts annotations from 1", () => {
        const readme = fs.readFileSync(path.join(repo, "examples/demo/README.md"), "utf8");
        const rows = [...readme.matchAll(/^\|\s*(\d+)\s*\|/gm)].map((m) => Number(m[1]));
        assert.ok(rows.length >= 8, `the table lists the demo's annotations (${rows.length} rows)`);
        assert.equal(Math.min(...rows), 1);
        assert.doesNotMatch(readme, /annotation 0\b|\bAnnotation 0\b/);
    });
});
