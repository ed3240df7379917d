/** The packaged extension (.vscodeignore's allow-list) holds every file the manifest and the client name. */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import picomatch from "picomatch";

const repo = path.resolve(__dirname, "../../..");

describe("the packaged extension", () => {
    it("ships every media file package.json or the client names, and the grammars", () => {
        const allowed = fs
            .readFileSync(path.join(repo, ".vscodeignore"), "utf8")
            .split("\n")
            .filter((line) => line.startsWith("!"))
            .map((line) => picomatch(line.slice(1)));
        const shipped = (file: string) => allowed.some((match) => match(file));
        const pkg = fs.readFileSync(path.join(repo, "package.json"), "utf8");
        const named = new Set([...pkg.matchAll(/"(?:\.\/)?((?:media|syntaxes|schemas)\/[^"]+)"/g)].map((m) => m[1]));
        // The client's gutter icons: media/<name>.svg and <name>-light.svg (client/src/decorations.ts).
        const decorations = fs.readFileSync(path.join(repo, "client/src/decorations.ts"), "utf8");
        const icons = /const GUTTER_ICONS[^{]*\{([^}]*)\}/.exec(decorations)?.[1] ?? "";
        for (const m of icons.matchAll(/: "([\w-]+)"/g)) {
            named.add(`media/${m[1]}.svg`);
            named.add(`media/${m[1]}-light.svg`);
        }
        assert.ok(named.size > 8, [...named].join(", "));
        for (const file of named) assert.ok(fs.existsSync(path.join(repo, file)), `${file} exists`);
        assert.deepEqual(
            [...named].filter((file) => !shipped(file)),
            [],
            "named but left out of the package",
        );
    });

    it("passes vsce's own validation of the manifest (npm run package refused the extension kind web)", () => {
        const { validateManifestForPackaging } = require("@vscode/vsce/out/package");
        const manifest = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
        assert.doesNotThrow(() => validateManifestForPackaging(manifest));
        assert.throws(() => validateManifestForPackaging({ ...manifest, extensionKind: ["workspace", "web"] }));
    });
});
