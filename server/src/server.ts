/**
 * Entry point of the language server bundle: `node dist/server.js --stdio` (or IPC from the VS Code
 * client). The server itself is `startLanguageServer` (languageServer.ts, docs/architecture.md); this
 * entry gives it what only Node has: page fetches, evidence search, the agent tools (docs/web.md).
 */
import { setFlagsFromString } from "node:v8";
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { fetchSourceText } from "./fetch/fetchSource";
import { startLanguageServer } from "./languageServer";
import { agentTool } from "./node/agentTools";
import { EvidenceFeature } from "./node/evidence";
import { exitOnUncaughtErrors } from "./processGuards";
import { NODE_HOST } from "./workspace/nodeHost";

exitOnUncaughtErrors(process, (message) => process.stderr.write(`${message}\n`));
// An editor's server keeps little alive: V8's memory-saving heap growth collects before growing the
// heap. An edit no longer leaves its whole old text behind (workspace/editedDocument.ts), but the
// flag still keeps the peak at 3,000 annotations near 120 MB instead of 138 (docs/benchmarks-cases.md).
setFlagsFromString("--optimize-for-size");
startLanguageServer(createConnection(ProposedFeatures.all), {
    // Links followed on the disk (a buffer of a link leading out of its root is refused), the disk's walk.
    ...NODE_HOST,
    // The strict policy and the system resolver: no option loosens them here.
    fetchPage: (url, { signal }) => fetchSourceText(url, { signal }),
    evidence: new EvidenceFeature(),
    agentTool,
});
