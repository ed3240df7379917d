/** The demo works when its folder is copied anywhere: nothing in it points outside the folder. */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");

describe("the demo folder stands alone", () => {
    it("its sourcecheck.config.json names no schema by a path outside the folder; the extension contributes it", () => {
        const config = JSON.parse(fs.readFileSync(path.join(repo, "examples/demo/sourcecheck.config.json"), "utf8"));
        const schema: unknown = config.$schema;
        if (typeof schema === "string")
            assert.match(schema, /^https:\/\//, "a $schema must be a URL, not a relative path");
        const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
        const contributed = (pkg.contributes.jsonValidation as { fileMatch: string | string[]; url: string }[]).find(
            (v) => [v.fileMatch].flat().includes("sourcecheck.config.json"),
        );
        assert.ok(contributed, "the extension contributes the schema of sourcecheck.config.json");
        assert.ok(fs.existsSync(path.join(repo, contributed.url)));
    });
});
