import * as assert from "node:assert/strict";
import * as nodePath from "node:path";
import fc from "fast-check";
import { type ConfigFileSystem, ProjectConfigs } from "../../server/src/workspace/projectConfig";

/**
 * ProjectConfigs.forFile keeps the folder of the file asked about last (a walk asks about every file
 * of a folder in a row). Oracle: a fresh ProjectConfigs, which keeps nothing, for each path: absolute
 * and relative paths, "." and ".." anywhere, trailing separators.
 */
describe("project configuration: the folder kept between files", () => {
    it("gives every file the configuration a fresh lookup gives it, whatever came before (property)", () => {
        const configs = new Map([
            [nodePath.resolve("/w", "sourcecheck.config.json"), "{}"],
            [nodePath.resolve("/w/a", "sourcecheck.config.json"), '{ "sources": ["**/*.md"] }'],
            [nodePath.resolve("/w/a/b/c", "sourcecheck.config.json"), '{ "sources": ["x/**"] }'],
        ]);
        const files: ConfigFileSystem = { readConfig: (path) => configs.get(path) };
        const segment = fc.constantFrom("a", "b", "c", "x.md", ".", "..", "");
        const path = fc
            .tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 6 }))
            .map(([absolute, parts]) => (absolute ? "/w/" : "") + parts.join("/"));
        let ran = 0;
        let asked = 0;
        fc.assert(
            fc.property(fc.array(path, { minLength: 1, maxLength: 12 }), (paths) => {
                ran++;
                const kept = new ProjectConfigs(files);
                for (const file of paths) {
                    asked++;
                    const expected = new ProjectConfigs(files).forFile(file)?.config.file;
                    assert.equal(kept.forFile(file)?.config.file, expected, file);
                    assert.equal(kept.isSource(file), new ProjectConfigs(files).isSource(file), file);
                }
            }),
            // Found by this property once: "/w/./" is the folder "/w" itself, so its dirname is not its folder.
            { numRuns: 300, examples: [[["/w/./", "/w/a", "a"]], [["/w/../", "/w/a"]], [["/w//", "/w/a"]]] },
        );
        assert.equal(ran, 300, "the examples run within the 300");
        assert.ok(asked > 1000);
    });
});
