/** The demo works when its folder is copied anywhere: nothing in it points outside the folder. */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");

describe("the demo folder stands alone", () => {
    it("its sourcecheck.config.json names no schema by a path outside the folder; the extension serves it", () => {
        const config = JSON.parse(fs.readFileSync(path.join(repo, "examples/demo/sourcecheck.config.json"), "utf8"));
        const schema: unknown = config.$schema;
        if (typeof schema === "string")
            assert.match(schema, /^https:\/\//, "a $schema must be a URL, not a relative path");
        const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
        // One voice (docs/config.md, "In the editor"): the file has its own language, so VS Code's JSON
        // support neither validates it nor is given its schema; our server completes it from the schema.
        const language = (pkg.contributes.languages as { id: string; filenames?: string[] }[]).find((l) =>
            l.filenames?.includes("sourcecheck.config.json"),
        );
        assert.equal(language?.id, "sourcecheck-config");
        const validated = (pkg.contributes.jsonValidation as { fileMatch: string | string[] }[]).filter((v) =>
            [v.fileMatch].flat().includes("sourcecheck.config.json"),
        );
        assert.deepEqual(validated, [], "VS Code's JSON validation is not asked to check sourcecheck.config.json");
        assert.ok(fs.existsSync(path.join(repo, "schemas/sourcecheck.config.schema.json")));
    });
});
