/**
 * `sourcecheck cite [--root DIR] [--json] PATH QUOTE` (docs/cite.md): the ref citing one quote of a
 * document under the root. Exit 0 cited, 1 the quote could not be cited, 2 bad input.
 */
import * as nodePath from "node:path";
import { type CiteResult, citeQuote } from "../core/cite";
import { normalizeRefPath } from "../core/refPath";
import { SessionDocument } from "../core/session";
import { decodeText, readDocumentUnderRoot } from "../workspace/diskDocuments";
import { sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, ROOT_AND_JSON, usageError } from "./commandLine";
import type { CliIo } from "./commands";
import { CliError } from "./files";

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
    run({ values, positionals }, io): number {
        if (positionals.length !== 2) throw usageError(SPEC, " takes PATH and QUOTE");
        const [givenPath, quoteArgument] = positionals;
        // `./a.md` and `docs\\a.md` are written into the ref as `a.md` and `docs/a.md` (docs/cite.md).
        const normalized = normalizeRefPath(givenPath);
        const documentPath = normalized.ok ? normalized.path : givenPath;
        const quote = quoteArgument === "-" ? readQuoteFromStdin(io) : quoteArgument;
        const root = nodePath.resolve(io.cwd, values.root ?? ".");
        const read = readDocumentUnderRoot(root, documentPath);
        if (!read.ok) {
            // Bad input, not an uncitable quote: the document itself cannot be had.
            if (values.json) {
                io.stdout(`${JSON.stringify({ error: { ...read.failure, lines: [] } }, null, 2)}\n`);
                return 2;
            }
            throw new CliError(`cite: ${read.failure.code}: ${read.failure.message}`);
        }
        const result = citeQuote(new SessionDocument(documentPath, read.content), quote);
        io.stdout(values.json ? `${JSON.stringify(citeJson(result), null, 2)}\n` : citeText(result));
        if (!result.ok && !values.json) io.stderr(`sourcecheck: ${result.error.code}: ${result.error.message}\n`);
        if (result.ok && !values.json) {
            for (const warning of result.warnings ?? [])
                io.stderr(`sourcecheck: ${warning.code}: ${warning.message}\n`);
        }
        return result.ok ? 0 : 1;
    },
});

/** The `--json` shape, also the structured content of the MCP tool `cite`. */
export function citeJson(result: CiteResult): object {
    if (result.ok) {
        return result.warnings
            ? { ref: result.ref, text: result.text, warnings: result.warnings }
            : { ref: result.ref, text: result.text };
    }
    return result.candidates ? { error: result.error, candidates: result.candidates } : { error: result.error };
}

/** Text output: the ref as one JSON line, ready to paste into an annotation. */
function citeText(result: CiteResult): string {
    return result.ok ? `${JSON.stringify(result.ref)}\n` : "";
}

function readQuoteFromStdin(io: CliIo): string {
    if (!io.stdinIsPiped) throw new CliError("cite: QUOTE is -, but nothing is piped into stdin");
    const decoded = decodeText(io.readStdin());
    if (!decoded.ok) throw new CliError(`cite: the quote on stdin ${decoded.message}`);
    return decoded.text;
}
