/**
 * The layers of docs/architecture.md, enforced by `npm run lint` (dependency-cruiser reads the
 * TypeScript sources, type-only imports included). test/unit/layers.test.ts proves a forbidden
 * import fails the check.
 */
/** The built-in modules that reach files, processes or the network. */
const IO_MODULES = ["^(node:)?(fs|fs/promises|child_process|net|http|https|dns)$"];

/**
 * The modules that reach the disk, git or the network when they run (Node only; the rest of
 * workspace/ is pure or works over a host's files). test/unit/layers.test.ts holds this list to the
 * tree: every module of workspace/ or fetch/ whose imports reach one of IO_MODULES is on it.
 */
const NODE_ONLY = [
    "^server/src/workspace/(agentRevision|boundedConfigs|corpusReader|corpusWatcher|discoveryFs|diskDocuments|documentMoves|evidenceSearch|evidenceStore|fileStamp|fileStat|freshDocuments|gitChanges|gitRevision|ignoreFile|lockFiles|newFile|nodeConfigs|nodeDiscovery|nodeHost|nodeWorkspace|safeFile|safeWrite)\\.ts$",
    "^server/src/fetch/fetchSource\\.ts$",
    "^server/src/(node|cli|mcp)/",
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
    forbidden: [
        {
            name: "core-is-pure",
            comment: "server/src/core imports only core, shared/ and pure npm packages: no fs, no LSP, no vscode.",
            severity: "error",
            from: { path: "^server/src/core/" },
            to: {
                pathNot: ["^server/src/core/", "^shared/", "(^|/)node_modules/(approx-string-match|diff|jsonc-parser|zod)/"],
            },
        },
        {
            name: "operations-over-capabilities",
            comment:
                "server/src/operations import only core/, shared/, operations/ and pure packages: every file, lock, git or write comes in as a capability its front end injects (docs/contract.md, section 7).",
            severity: "error",
            from: { path: "^server/src/operations/" },
            to: {
                pathNot: [
                    "^server/src/(core|operations)/",
                    "^shared/",
                    "(^|/)node_modules/(approx-string-match|diff|jsonc-parser|zod)/",
                ],
            },
        },
        {
            name: "workspace-below-features",
            comment:
                "server/src/workspace is where documents come from, below the features, the agent tools and the quote files that use it (docs/architecture.md): it imports none of them.",
            severity: "error",
            from: { path: "^server/src/workspace/" },
            to: { path: "^server/src/(features|agentTools|quotes)/" },
        },
        {
            name: "lsp-through-the-service",
            comment:
                "The registrations (server/src/lsp/) bind the language service to the connection and reach the server only through it: languageService.ts and each other, besides shared/ and npm packages (docs/architecture.md).",
            severity: "error",
            from: { path: "^server/src/lsp/" },
            to: { path: "^server/src/", pathNot: "^server/src/(lsp/|languageService\\.ts$)" },
        },
        {
            name: "features-are-thin",
            comment:
                "server/src/features take no connection and do no disk I/O: no cli/, no mcp/, no fs, no vscode-languageserver connection module (types come from vscode-languageserver-protocol).",
            severity: "error",
            from: { path: "^server/src/features/" },
            to: {
                path: [
                    "^server/src/cli/",
                    "^server/src/mcp/",
                    "^fs$",
                    "^fs/promises$",
                    "^node:fs",
                    "(^|/)node_modules/vscode-languageserver/",
                ],
            },
        },
        {
            name: "io-behind-the-door",
            comment:
                "Files, processes and the network are reached through the one door (docs/architecture.md, \"One door for files\"): only the Node workspace (server/src/workspace/, not its web/), the Node front ends' composition (cli/, cli.ts, server.ts, mcp/diskContext.ts), the page fetcher (fetch/fetchSource.ts) and tests import fs, child_process, net, http(s) or dns.",
            severity: "error",
            from: {
                path: "^(server/src|client/src|shared)/",
                pathNot: [
                    "^server/src/workspace/(?!web/)",
                    "^server/src/cli/",
                    "^server/src/(cli|server)\\.ts$",
                    "^server/src/mcp/diskContext\\.ts$",
                    "^server/src/fetch/fetchSource\\.ts$",
                    "(^|/)test/",
                    "\\.test\\.ts$",
                ],
            },
            to: { path: IO_MODULES },
        },
        {
            name: "service-through-the-workspace",
            comment:
                "The language service, its features, the operations, the agent tools and everything they use reach files only through what their host gives them (a Workspace, HostReads, HostLocks, a ToolContext): none imports a Node-only module of the workspace (the safe reader and writer, git, the disk's walk, locks and evidence index), the Node server's parts (server/src/node/), the CLI, the MCP server or the page fetcher. Type-only imports are allowed: they leave nothing in the bundle.",
            severity: "error",
            from: {
                path: "^server/src/(languageService\\.ts$|service/|features/|operations/|evidence/|quotes/|render/|lsp/|agentTools/|core/)",
            },
            to: { path: NODE_ONLY, dependencyTypesNot: ["type-only"] },
        },
        {
            name: "connection-in-lsp-only",
            comment:
                "Only the registrations (server/src/lsp/, languageServer.ts, server.ts, browserServer.ts) hold the connection: the language service and everything below answer in LSP types from vscode-languageserver-protocol.",
            severity: "error",
            from: { path: "^server/src/", pathNot: "^server/src/(lsp/|languageServer\\.ts$|server\\.ts$|browserServer\\.ts$)" },
            to: { path: "(^|/)node_modules/vscode-languageserver/" },
        },
        {
            name: "mcp-not-into-cli",
            comment: "The MCP server does not reach into the CLI's internals: shared pieces live in workspace/.",
            severity: "error",
            from: { path: "^server/src/mcp/" },
            to: { path: "^server/src/cli/" },
        },
        {
            name: "cli-not-into-mcp",
            comment: "The CLI starts the MCP server through its entry (mcp/server.ts, mcp/diskContext.ts) only.",
            severity: "error",
            from: { path: "^server/src/cli/" },
            to: { path: "^server/src/mcp/", pathNot: "^server/src/mcp/(server|diskContext)\\.ts$" },
        },
        {
            name: "client-asks-the-server",
            comment: "client/ imports nothing of the server: from outside client/ only shared/ (and npm packages).",
            severity: "error",
            from: { path: "^client/" },
            to: { path: "^(server|test|bench|scripts)/" },
        },
        {
            name: "shared-stands-alone",
            comment: "shared/ is compiled by both sides: it imports only shared/ and npm packages.",
            severity: "error",
            from: { path: "^shared/" },
            to: { pathNot: ["^shared/", "^node_modules/"] },
        },
        {
            name: "no-cycles",
            comment: "No import cycle, type-only imports included.",
            severity: "error",
            from: { path: "^(server/src|client/src|shared)/" },
            to: { circular: true },
        },
    ],
    options: {
        doNotFollow: { path: "node_modules" },
        exclude: { path: "^(out|dist)/" },
        tsPreCompilationDeps: true,
        tsConfig: { fileName: "tsconfig.json" },
        moduleSystems: ["cjs", "es6"],
    },
};
