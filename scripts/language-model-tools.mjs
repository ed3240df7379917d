// Writes `contributes.languageModelTools` of package.json from the agent tools' definitions
// (server/src/agentTools/schemas.ts), so VS Code's agents see the schemas the MCP server declares,
// and their display texts to package.nls.json.
// Run after `npx tsc -p .`; test/unit/agentTools.test.ts fails when package.json is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const root = new URL("..", import.meta.url).pathname;
const { languageModelTools, languageModelToolTexts } = require(`${root}out/server/src/agentTools/manifest.js`);
const path = `${root}package.json`;
const manifest = JSON.parse(readFileSync(path, "utf8"));
manifest.contributes.languageModelTools = languageModelTools();
writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
// Their English texts, by the keys the manifest names (translations: package.nls.<locale>.json).
const nlsPath = `${root}package.nls.json`;
const nls = JSON.parse(readFileSync(nlsPath, "utf8"));
writeFileSync(nlsPath, `${JSON.stringify({ ...nls, ...languageModelToolTexts() }, null, 2)}\n`);
