/**
 * `sourcecheck render [--root DIR] [-o OUT.html] FILE` (docs/render.md): the check of FILE as one
 * self-contained HTML page, for reviewers without an editor. The document root is found as `check`
 * finds it (--root, else the nearest sourcecheck.config.json, else the current folder). The page is
 * written whatever the verdicts, and the exit code says what `check` would: 0 clean, 1 broken refs,
 * 2 bad input (schema errors, or no page could be made). With -o, where it wrote goes to stderr.
 */
import * as nodePath from "node:path";
import { EXIT, type ExitStatus } from "../../../shared/exitCodes";
import { plural } from "../../../shared/numbering";
import { RecordingLookup } from "../core/lock/basis";
import { isDocumentFailure } from "../core/session";
import { visible } from "../core/visible";
import { type CheckLockRead, checkOperation } from "../operations/check";
import { renderHtml } from "../render/html";
import { DiskDocuments } from "../workspace/diskDocuments";
import { lockPathFor, readLockBeside } from "../workspace/lockFiles";
import { nodeProjectConfigs } from "../workspace/nodeConfigs";
import { formatConfigProblem, resolveDocumentRoot } from "../workspace/projectConfig";
import { sha256 } from "../workspace/sha256";
import { sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, usageError } from "./commandLine";
import { CliError, readTextInput, writeFileAtomic } from "./files";

const USAGE = `  sourcecheck render [--root DIR] [-o OUT.html [--follow-symlinks]] FILE
            one self-contained HTML page of FILE's check: each answer document with its claims
            highlighted and numbered, each claim's sources, polarity, confidence and errors`;

const SPEC: CommandSpec = {
    name: "render",
    usage: USAGE,
    exits: sourceCheckExits({
        clean: "the page is written and every ref resolves",
        findings: "the page is written and some refs are broken",
        usage: "schema errors, no page could be made, or bad usage",
    }),
};

export const renderCommand = defineCommand({
    spec: SPEC,
    options: {
        root: { type: "string" },
        output: { type: "string", short: "o" },
        "follow-symlinks": { type: "boolean" },
    },
    run({ values, positionals }, io): ExitStatus {
        if (positionals.length !== 1) throw usageError(SPEC, " takes one FILE");
        const [file] = positionals;
        const text = readTextInput(file === "-" ? "-" : nodePath.resolve(io.cwd, file), io.readStdin, file);
        const path = nodePath.resolve(io.cwd, file === "-" ? "-" : file);
        const resolution = resolveDocumentRoot(path, {
            explicitRoot: values.root !== undefined ? nodePath.resolve(io.cwd, values.root) : undefined,
            fallback: io.cwd,
            configs: nodeProjectConfigs(),
        });
        if (resolution.problem) {
            throw new CliError(
                formatConfigProblem(resolution.problem, nodePath.relative(io.cwd, resolution.problem.file)),
            );
        }
        // Every path the check looks up is recorded: each is an input `-o` may not replace.
        const workspace = new RecordingLookup(
            new DiskDocuments(resolution.root, { maxBytes: resolution.config?.maxDocumentSize }),
        );
        // The one check (operations/check.ts), with the lock beside the file as `check` reads it.
        const lock = file === "-" ? undefined : renderLock(path, file);
        const outcome = checkOperation({ text, keep: true }, { documents: workspace, lock, sha256 });
        const { result } = outcome;
        const documents: { path: string; content: string }[] = [];
        const seen = new Set<string>();
        for (const entry of result.report.entries) {
            const claim = entry.claim;
            if (!claim.valid || seen.has(claim.path)) continue;
            seen.add(claim.path);
            const document = result.lookup.get(claim.path);
            if (document && !isDocumentFailure(document))
                documents.push({ path: claim.path, content: document.content });
        }
        const html = renderHtml({
            title: file === "-" ? "<stdin>" : file,
            generator: `sourcecheck ${io.version}`,
            report: result.report,
            documents,
        });
        const { invalidCount } = result.report;
        const { exitCode } = outcome;
        const lockError = outcome.extras.lockError as { file: string; code: string; message: string } | undefined;
        const verdict =
            exitCode === EXIT.usage
                ? lockError
                    ? `${visible(lockError.file)}: ${lockError.code}: ${visible(lockError.message)}`
                    : "it has schema errors"
                : exitCode === EXIT.findings
                  ? `${plural(invalidCount, "annotation")} with broken refs`
                  : "every ref resolves";
        if (values.output === undefined) {
            io.stdout(html);
            if (exitCode !== EXIT.clean) io.stderr(`sourcecheck render: ${verdict}\n`);
        } else {
            // Never over any file the command read: the annotation file, its lock, its configuration
            // or any document it cites, claims and sources alike (`render -o IN IN`, `render -o
            // CITED.md`, `render -o sourcecheck.config.json`; docs/security.md, "Writes").
            const inputs = [...workspace.seen.keys()].map((cited) => nodePath.resolve(resolution.root, cited));
            if (file !== "-") inputs.push(path, lockPathFor(path));
            // The configuration it read too (its root, size cap and globs), broken or not.
            if (resolution.config) inputs.push(resolution.config.file);
            const out = nodePath.resolve(io.cwd, values.output);
            writeFileAtomic(out, html, { inputs, followSymlinks: values["follow-symlinks"] === true }, values.output);
            // Named as the user wrote it: a path relative to here could climb out of the cwd and back.
            io.stderr(`sourcecheck render: wrote ${visible(values.output)} (${verdict})\n`);
        }
        return exitCode;
    },
});

/** The lock beside FILE, named beside FILE as given (as `check` names it). */
function renderLock(path: string, file: string): CheckLockRead {
    const read = readLockBeside(path);
    const shown = nodePath.join(nodePath.dirname(file), nodePath.basename(read.path));
    return read.lock || read.error ? { path: shown, lock: read.lock, error: read.error } : {};
}
