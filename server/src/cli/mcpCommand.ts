/**
 * `sourcecheck mcp [--root DIR]` (docs/agents.md): the Model Context Protocol server over stdio.
 * Nothing but protocol messages goes to stdout; logs go to stderr.
 */

import * as fs from "node:fs";
import * as nodePath from "node:path";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { visible } from "../core/visible";
import { diskToolsOnFirstCall, serveStdio } from "../mcp/server";
import { sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, usageError } from "./commandLine";
import { CliError } from "./files";

const USAGE = `  sourcecheck mcp [--root DIR] [--log-timings]
            serve the tools index, cite, annotate, check, repair, lock, evidence and import to MCP clients over stdio;
            paths are relative to --root (default: the current directory), nothing outside it is read;
            --log-timings writes each request's time in the server to stderr`;

const SPEC: CommandSpec = {
    name: "mcp",
    usage: USAGE,
    exits: sourceCheckExits({ clean: "the client closed the connection", usage: "bad usage" }),
};

export const mcpCommand = defineCommand({
    spec: SPEC,
    options: { root: { type: "string" }, "log-timings": { type: "boolean" } },
    async run({ values, positionals }, io): Promise<ExitStatus> {
        if (positionals.length > 0) throw usageError(SPEC, ` takes no operands, not ${positionals[0]}`);
        const root = nodePath.resolve(io.cwd, values.root ?? ".");
        let isDirectory = false;
        try {
            isDirectory = fs.statSync(root).isDirectory();
        } catch {
            isDirectory = false;
        }
        if (!isDirectory) throw new CliError(`mcp: --root ${root} is not a directory`);
        // A stray exception in a handler's asynchronous tail must not end the session.
        process.on("uncaughtException", (error) => io.stderr(`sourcecheck mcp: uncaught: ${visible(error.message)}\n`));
        process.on("unhandledRejection", (reason) =>
            io.stderr(`sourcecheck mcp: unhandled: ${visible(String(reason))}\n`),
        );
        // The client went away mid-answer: nothing left to serve.
        process.stdout.on("error", () => process.exit(EXIT.clean));
        // The tools and the workspace code under them load on the first tool call, not at start-up.
        await serveStdio(
            diskToolsOnFirstCall(root),
            io.version,
            { input: process.stdin, output: process.stdout, log: (line) => io.stderr(`${line}\n`) },
            values["log-timings"] === true,
        );
        return EXIT.clean;
    },
});
