// The e2e hooks (`sourcecheck._*`) exist only when VS Code runs the extension's tests (pure).
import * as assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Handler, registerTestHooks } from "../testHooks";

// vscode.ExtensionMode: Production = 1, Development = 2, Test = 3.
const MODE = { Production: 1, Development: 2, Test: 3 };

function run(extensionMode: number) {
    const registered = new Map<string, Handler>();
    const ids = registerTestHooks({ extensionMode }, MODE.Test, (id, h) => registered.set(id, h), {
        refUpdates: () => "log",
        serverPid: () => 42,
    });
    return { ids, registered };
}

describe("client: test-only commands", () => {
    it("registers nothing in a normal run (production or development)", () => {
        for (const mode of [MODE.Production, MODE.Development]) {
            const { ids, registered } = run(mode);
            assert.deepEqual(ids, []);
            assert.equal(registered.size, 0);
        }
    });

    it("registers every hook under sourcecheck._ when the tests run", () => {
        const { ids, registered } = run(MODE.Test);
        assert.deepEqual(ids, ["sourcecheck._refUpdates", "sourcecheck._serverPid"]);
        assert.equal(registered.get("sourcecheck._serverPid")?.(), 42);
    });

    it("no client module registers a sourcecheck._ command any other way", () => {
        // out/client/src/test -> the TypeScript sources in client/src
        const src = join(__dirname, "..", "..", "..", "..", "client", "src");
        const direct: string[] = [];
        for (const file of readdirSync(src).filter((f) => f.endsWith(".ts"))) {
            const text = readFileSync(join(src, file), "utf8");
            for (const m of text.matchAll(/(?:registerCommand|command)\(\s*["'`]sourcecheck\._/g))
                direct.push(`${file}@${m.index}`);
        }
        assert.deepEqual(direct, []);
        const contributed = JSON.parse(readFileSync(join(src, "..", "..", "package.json"), "utf8")).contributes
            .commands;
        assert.ok(contributed.length > 0);
        for (const c of contributed) assert.ok(!c.command.startsWith("sourcecheck._"), c.command);
    });
});
