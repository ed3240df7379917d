/**
 * Localization (docs/localization.md): every text package.json shows is a `%key%` with an English
 * text in package.nls.json and a translation in each package.nls.<locale>.json; every
 * `vscode.l10n.t` string of the client is in l10n/bundle.l10n.json and translated in each
 * l10n/bundle.l10n.<locale>.json, and so is every text the language server translates (its `l10n.t`
 * calls and its message templates: server/src/features/messages.ts); a translation keeps the
 * placeholders of its English text.
 * The strings are extracted by @vscode/l10n-dev, the tool VS Code's own extensions use.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { getL10nJson } from "@vscode/l10n-dev";
import { languageModelToolTexts } from "../../server/src/agentTools/manifest";
import { featureMessageKeys } from "../../server/src/features/messages";

const repo = path.resolve(__dirname, "../../..");
const LOCALES = ["zh-cn"];
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repo, file), "utf8"));

/** Every `%key%` string anywhere in a JSON value. */
function placeholderKeys(value: unknown, keys = new Set<string>()): Set<string> {
    if (typeof value === "string") {
        const m = /^%([^%\s]+)%$/.exec(value);
        if (m) keys.add(m[1]);
    } else if (Array.isArray(value)) for (const v of value) placeholderKeys(v, keys);
    else if (value && typeof value === "object") for (const v of Object.values(value)) placeholderKeys(v, keys);
    return keys;
}

/** The `{0}`- and `{name}`-style arguments of a message, sorted. */
const args = (message: string) => [...message.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

/** Text a person reads that is not a translation: ASCII letters only, beside the names kept as they are. */
function looksUntranslated(english: string, translated: string): boolean {
    const kept = translated.replace(
        /SourceCheck|TraceCite|BM25|JSONL|URI|glob|Markdown|UTF-8|VS Code|`[^`]*`|"[^"]*"|\*\S*|[\w./-]*\.(json|md|txt)\b|sourcecheck[\w.:]*|annotationFile|annotationIndex|range|start|end|line|character|confidence|polarity|npm run build/g,
        "",
    );
    return /[a-z]{3,}/i.test(kept) && english === translated;
}

function clientSources(): { extension: string; contents: string }[] {
    const dir = path.join(repo, "client/src");
    return fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".ts"))
        .map((f) => ({ extension: ".ts", contents: fs.readFileSync(path.join(dir, f), "utf8") }));
}

/** The server's modules that call `@vscode/l10n` themselves (the registrations' progress). */
function serverSources(dir = path.join(repo, "server/src")): { extension: string; contents: string }[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) return serverSources(file);
        const contents = entry.name.endsWith(".ts") ? fs.readFileSync(file, "utf8") : "";
        return contents.includes('from "@vscode/l10n"') ? [{ extension: ".ts", contents }] : [];
    });
}

/** Every English text the language server translates: its `l10n.t` strings and the features' templates. */
async function serverKeys(): Promise<string[]> {
    return [...new Set([...Object.keys(await getL10nJson(serverSources())), ...featureMessageKeys()])];
}

describe("localization", () => {
    it("package.json shows no English text of its own: every contributed title and description is a %key% of package.nls.json", () => {
        const pkg = readJson("package.json");
        const nls = readJson("package.nls.json") as Record<string, string>;
        const contributes = pkg.contributes;
        const used = placeholderKeys({ description: pkg.description, contributes });
        assert.ok(used.size > 80, `package.json names ${used.size} keys`);
        assert.deepEqual(
            [...used].filter((k) => !(k in nls)),
            [],
            "keys package.nls.json lacks",
        );
        assert.deepEqual(
            Object.keys(nls).filter((k) => !used.has(k)),
            [],
            "keys of package.nls.json nothing uses",
        );
        const literal: string[] = [];
        for (const c of contributes.commands) if (!c.title.startsWith("%")) literal.push(`command ${c.command}`);
        for (const [name, p] of Object.entries<Record<string, unknown>>(contributes.configuration.properties)) {
            const text = p.markdownDescription ?? p.description;
            if (typeof text !== "string" || !text.startsWith("%")) literal.push(`setting ${name}`);
            for (const d of (p.enumDescriptions as string[] | undefined) ?? [])
                if (!d.startsWith("%")) literal.push(`setting ${name} enum`);
        }
        for (const c of contributes.colors) if (!c.description.startsWith("%")) literal.push(`color ${c.id}`);
        for (const t of contributes.languageModelTools)
            if (!t.displayName.startsWith("%") || !t.userDescription.startsWith("%")) literal.push(`tool ${t.name}`);
        for (const v of Object.values<{ name: string }[]>(contributes.views).flat())
            if (!v.name.startsWith("%")) literal.push(`view ${v.name}`);
        assert.deepEqual(literal, []);
        // The tools' English texts come from their definitions (scripts/language-model-tools.mjs writes them).
        for (const [key, text] of Object.entries(languageModelToolTexts())) assert.equal(nls[key], text, key);
    });

    for (const locale of LOCALES) {
        it(`package.nls.${locale}.json translates every key of package.nls.json, keeping its placeholders`, () => {
            const nls = readJson("package.nls.json") as Record<string, string>;
            const translated = readJson(`package.nls.${locale}.json`) as Record<string, string>;
            assert.deepEqual(Object.keys(translated).sort(), Object.keys(nls).sort());
            for (const [key, english] of Object.entries(nls)) {
                assert.ok(translated[key].trim().length > 0, key);
                assert.ok(!looksUntranslated(english, translated[key]), `${key} is not translated`);
                // Inline code (setting names, globs) stays as it is.
                const code = (s: string) => [...s.matchAll(/`[^`]+`/g)].map((m) => m[0]).sort();
                assert.deepEqual(code(translated[key]), code(english), `${key} keeps its inline code`);
            }
        });
    }

    it("the client's vscode.l10n.t strings are exactly those of l10n/bundle.l10n.json (npm run l10n:export)", async () => {
        const extracted = await getL10nJson(clientSources());
        const keys = Object.keys(extracted);
        assert.ok(keys.length > 150, `extracted ${keys.length} strings`);
        const bundle = readJson("l10n/bundle.l10n.json") as Record<string, string>;
        assert.deepEqual(keys.sort(), Object.keys(bundle).sort());
    });

    it("the language server's texts: its l10n.t calls (progress) and its message templates", async () => {
        const keys = await serverKeys();
        assert.ok(keys.length > 60, `the server translates ${keys.length} texts`);
        assert.ok(keys.includes("SourceCheck: checking annotation files"), "the lsp/ calls are extracted");
    });

    for (const locale of LOCALES) {
        it(`l10n/bundle.l10n.${locale}.json translates every client and server string, keeping its arguments`, async () => {
            const bundle = readJson("l10n/bundle.l10n.json") as Record<string, string>;
            const translated = readJson(`l10n/bundle.l10n.${locale}.json`) as Record<string, string>;
            const english = { ...Object.fromEntries((await serverKeys()).map((k) => [k, k])), ...bundle };
            assert.deepEqual(Object.keys(translated).sort(), Object.keys(english).sort());
            const untranslated: string[] = [];
            for (const [key, text] of Object.entries(english)) {
                assert.deepEqual(args(translated[key]), args(text), `"${key}" keeps its arguments`);
                if (looksUntranslated(text, translated[key])) untranslated.push(key);
            }
            assert.deepEqual(untranslated, [], "strings left in English");
        });
    }

    it("the package ships the translations (.vscodeignore lets them in)", () => {
        const ignore = fs.readFileSync(path.join(repo, ".vscodeignore"), "utf8").split("\n");
        for (const pattern of ["!package.nls.json", "!package.nls.*.json", "!l10n/bundle.l10n.*.json"])
            assert.ok(ignore.includes(pattern), pattern);
        assert.equal(readJson("package.json").l10n, "./l10n");
    });

    // Issue 34.11: "Configure Display Language" lists only the languages whose packs VS Code has.
    it("docs/localization.md tells a person how to get each shipped language: the pack, then the display language", () => {
        const doc = fs.readFileSync(path.join(repo, "docs/localization.md"), "utf8");
        const packs: Record<string, string> = { "zh-cn": "MS-CEINTL.vscode-language-pack-zh-hans" };
        const section = doc.split(/^## /m).find((s) => s.startsWith("Getting the Chinese UI")) ?? "";
        for (const locale of LOCALES) {
            assert.ok(section.includes(packs[locale]), `names the marketplace id of the ${locale} language pack`);
            assert.ok(section.includes(locale), `names the locale ${locale}`);
        }
        assert.match(section, /Configure Display Language/);
        assert.match(doc, /What stays English/);
    });
});
