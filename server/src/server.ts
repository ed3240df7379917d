/**
 * Entry point of the language server bundle: `node dist/server.js --stdio` (or IPC from the VS Code
 * client). The server itself is `startLanguageServer` (languageServer.ts, docs/architecture.md).
 */
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { startLanguageServer } from "./languageServer";
import { exitOnUncaughtErrors } from "./processGuards";

exitOnUncaughtErrors(process, (message) => process.stderr.write(`${message}\n`));
startLanguageServer(createConnection(ProposedFeatures.all));
