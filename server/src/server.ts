/**
 * Entry point of the language server bundle: `node dist/server.js --stdio` (or IPC from the VS Code
 * client). The server itself is `startLanguageServer` (languageServer.ts, docs/architecture.md); this
 * entry gives it what only Node has: page fetches, evidence search, the agent tools (docs/web.md).
 */
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { agentTool } from "./features/agentTools";
import { EvidenceFeature } from "./features/evidence";
import { fetchSourceText } from "./fetch/fetchSource";
import { startLanguageServer } from "./languageServer";
import { exitOnUncaughtErrors } from "./processGuards";

exitOnUncaughtErrors(process, (message) => process.stderr.write(`${message}\n`));
startLanguageServer(createConnection(ProposedFeatures.all), {
    // The strict policy and the system resolver: no option loosens them here.
    fetchPage: (url, { signal }) => fetchSourceText(url, { signal }),
    evidence: new EvidenceFeature(),
    agentTool,
});
