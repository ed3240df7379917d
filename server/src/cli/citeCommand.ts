/**
 * `sourcecheck cite [--root DIR] [--json] PATH QUOTE` (docs/cite.md): the ref citing one quote of a
 * document under the root. Exit 0 cited, 1 the quote could not be cited, 2 bad input.
 */

import * as nodePath from "node:path";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { SessionDocument } from "../core/session";
import { visible } from "../core/visible";
import { cite } from "../operations/cite";
import { decodeText, readDocumentUnderRoot } from "../workspace/diskDocuments";
import { listCandidateDocuments } from "../workspace/nodeDiscovery";
import { sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, ROOT_AND_JSON, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import { CliError } from "./files";
import { jsonEnvelope } from "./jsonEnvelope";

const USAGE = `  sourcecheck cite [--root DIR] [--json] PATH QUOTE
            the ref citing QUOTE (verbatim, may span lines; - reads it from stdin) in document PATH
            (relative to --root)`;

const SPEC: CommandSpec = {
    name: "cite",
    usage: USAGE,
    hint: " (a QUOTE starting with - goes after --)",
    exits: sourceCheckExits({
        clean: "the ref is printed",
        findings: "the quote occurs nowhere or more than once",
        usage: "bad usage or an unreadable document",
    }),
};

export const citeCommand = defineCommand({
    spec: SPEC,
    options: ROOT_AND_JSON,
    run({ values, positionals }, io): ExitStatus {
        if (positionals.length !== 2) throw usageError(SPEC, " takes PATH and QUOTE");
        const [documentPath, quoteArgument] = positionals;
        const quote = quoteArgument === "-" ? readQuoteFromStdin(io) : quoteArgument;
        const root = nodePath.resolve(io.cwd, values.root ?? ".");
        // The operation the cite tools run too (operations/cite.ts): `./a.md` is cited as `a.md`.
        const outcome = cite(
            { path: documentPath, quote },
            {
                document(path) {
                    const read = readDocumentUnderRoot(root, path);
                    return read.ok ? new SessionDocument(path, read.content) : read.failure;
                },
                files: () => listCandidateDocuments(root),
            },
        );
        if (values.json) {
            const exitCode = outcome.ok ? EXIT.clean : outcome.badInput ? EXIT.usage : EXIT.findings;
            io.stdout(jsonEnvelope(outcome.ok ? outcome.output : outcome.failure, exitCode));
            return exitCode;
        }
        if (!outcome.ok) {
            const { code, message } = outcome.failure.error;
            // Bad input, not an uncitable quote: the document itself cannot be had.
            if (outcome.badInput) throw new CliError(`cite: ${code}: ${message}`);
            io.stderr(`sourcecheck: ${code}: ${visible(message)}\n`);
            return EXIT.findings;
        }
        io.stdout(`${JSON.stringify(outcome.output.ref)}\n`);
        for (const warning of outcome.output.warnings ?? [])
            io.stderr(`sourcecheck: ${warning.code}: ${visible(warning.message)}\n`);
        return EXIT.clean;
    },
});

function readQuoteFromStdin(io: CliIo): string {
    if (!io.stdinIsPiped) throw new CliError("cite: QUOTE is -, but nothing is piped into stdin");
    const decoded = decodeText(io.readStdin());
    if (!decoded.ok) throw new CliError(`cite: the quote on stdin ${decoded.message}`);
    return decoded.text;
}
