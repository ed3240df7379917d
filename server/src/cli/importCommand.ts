/**
 * `sourcecheck import [--from P] RESPONSE.json [--request REQUEST.json] [--document N=PATH|NAME=PATH]...
 * [--answer ANSWER.md] [-o OUT.sourcecheck.json] [--lock] [--json]` (docs/import.md): a model API's
 * response becomes its answer file and an annotation file whose refs resolve, through the import
 * operation (operations/import.ts). Exit 0 every citation converted, 1 some listed as not converted,
 * 2 bad input (nothing written).
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { EXIT, type ExitStatus, worstExit } from "../../../shared/exitCodes";
import { PROVIDERS, type Provider } from "../core/import/types";
import { SessionDocument } from "../core/session";
import { visible } from "../core/visible";
import {
    defaultAnnotationPath,
    defaultAnswerPath,
    type ImportJson,
    type ImportResult,
    importJson,
    importResponse,
} from "../operations/import";
import { readDocumentUnderRoot } from "../workspace/diskDocuments";
import { nodeProjectConfigs } from "../workspace/nodeConfigs";
import { listCandidateDocuments } from "../workspace/nodeDiscovery";
import { formatConfigProblem, resolveDocumentRoot } from "../workspace/projectConfig";
import { sourceCheckExits } from "./command";
import { type CommandSpec, defineCommand, ROOT_AND_JSON, usageError } from "./commandLine";
import { CliError, readTextInput, writeFileAtomic } from "./files";
import { jsonEnvelope } from "./jsonEnvelope";
import { lockFile } from "./lockCommand";

const USAGE = `  sourcecheck import [--from anthropic|openai|gemini|cohere] RESPONSE.json [--request REQUEST.json]
                     [--document N=PATH|NAME=PATH]... [--answer ANSWER.md] [-o OUT.sourcecheck.json]
                     [--root DIR] [--lock] [--json]
            a model API's response (recognised by its shape) becomes its answer (default RESPONSE.md)
            and an annotation file (default ANSWER.sourcecheck.json) whose refs cite the workspace
            files holding each cited text; --lock then writes its lock; citations that cannot be
            converted are listed with a reason`;

const SPEC: CommandSpec = {
    name: "import",
    usage: USAGE,
    exits: sourceCheckExits({
        clean: "every citation converted",
        findings: "some citation could not be converted (listed)",
        usage: "bad usage or input (nothing is written)",
    }),
};

export const importCommand = defineCommand({
    spec: SPEC,
    options: {
        ...ROOT_AND_JSON,
        from: { type: "string" },
        request: { type: "string" },
        document: { type: "string", multiple: true },
        answer: { type: "string" },
        output: { type: "string", short: "o" },
        lock: { type: "boolean" },
    },
    run({ values, positionals }, io): ExitStatus {
        if (positionals.length !== 1) throw usageError(SPEC, " takes one RESPONSE file (- for stdin)");
        const from = values.from;
        if (from !== undefined && !PROVIDERS.includes(from as Provider))
            throw usageError(SPEC, `: --from takes ${PROVIDERS.join(", ")}, not ${JSON.stringify(from)}`);
        const [responseFile] = positionals;
        const abs = (file: string) => nodePath.resolve(io.cwd, file);
        if (responseFile === "-" && values.answer === undefined)
            throw usageError(SPEC, ": a response read from stdin needs --answer");
        const answerShown = values.answer ?? defaultAnswerPath(responseFile);
        const outShown = values.output ?? defaultAnnotationPath(answerShown);
        const resolution = resolveDocumentRoot(abs(outShown), {
            explicitRoot: values.root !== undefined ? abs(values.root) : undefined,
            fallback: io.cwd,
            configs: nodeProjectConfigs(),
        });
        if (resolution.problem) throw new CliError(`import: ${formatConfigProblem(resolution.problem)}`);
        const root = resolution.root;
        const fromRoot = (file: string, what: string) => {
            const relative = nodePath.relative(root, abs(file)).replace(/\\/g, "/");
            if (relative === "" || relative.startsWith("../") || relative === ".." || nodePath.isAbsolute(relative))
                throw new CliError(`import: ${what} ${file} is not under the document root ${root}`);
            return relative;
        };
        const answerPath = fromRoot(answerShown, "the answer");
        const documents = (values.document ?? []).map((binding) => {
            const at = binding.lastIndexOf("=");
            if (at <= 0 || at === binding.length - 1)
                throw usageError(SPEC, `: --document takes N=PATH or NAME=PATH, not ${JSON.stringify(binding)}`);
            return { key: binding.slice(0, at), path: fromRoot(binding.slice(at + 1), "the document") };
        });
        const response = readTextInput(
            responseFile === "-" ? "-" : abs(responseFile),
            (max) => io.readStdin(max),
            responseFile,
        );
        const request =
            values.request !== undefined
                ? readTextInput(abs(values.request), () => Buffer.alloc(0), values.request)
                : undefined;
        const existingAnswer = fs.existsSync(abs(answerShown))
            ? readTextInput(abs(answerShown), () => Buffer.alloc(0), answerShown)
            : undefined;
        const underRoot = (file: string | undefined) => {
            if (file === undefined || file === "-") return [];
            const relative = nodePath.relative(root, abs(file)).replace(/\\/g, "/");
            return relative.startsWith("..") ? [] : [relative];
        };
        const outcome = importResponse(
            {
                response,
                request,
                from: from as Provider | undefined,
                answerPath,
                existingAnswer,
                documents,
                exclude: [...underRoot(responseFile), ...underRoot(values.request), ...underRoot(outShown)],
            },
            {
                document(path) {
                    const read = readDocumentUnderRoot(root, path, { maxBytes: resolution.config?.maxDocumentSize });
                    return read.ok ? new SessionDocument(path, read.content) : read.failure;
                },
                files: () => listCandidateDocuments(root),
            },
        );
        if (!outcome.ok) {
            if (values.json) {
                io.stdout(jsonEnvelope({ error: outcome.error }, EXIT.usage));
                return EXIT.usage;
            }
            throw new CliError(`import: ${outcome.error.code}: ${outcome.error.message}`);
        }
        const result = outcome.result;
        // New folders for the outputs, only now that nothing is left to refuse.
        for (const file of [answerShown, outShown]) fs.mkdirSync(nodePath.dirname(abs(file)), { recursive: true });
        if (result.writeAnswer) writeFileAtomic(abs(answerShown), result.answerText, {}, answerShown);
        writeFileAtomic(abs(outShown), result.annotationText, {}, outShown);
        const json: ImportJson & { lock?: unknown } = importJson(result, answerShown, outShown);
        if (values.lock) {
            const locked = lockFile(abs(outShown), outShown, values.root !== undefined ? root : undefined, io);
            json.lock = locked;
            json.exitCode = worstExit([json.exitCode, locked.exitCode]);
            json.ok = json.exitCode === EXIT.clean;
        }
        io.stdout(values.json ? jsonEnvelope(json, json.exitCode) : formatText(json, result));
        return json.exitCode;
    },
});

function formatText(json: ImportJson & { lock?: unknown }, result: ImportResult): string {
    const lines = result.notConverted.map(
        (n) => `${visible(json.annotationFile)}: citation ${n.citation}: ${n.reason}: ${visible(n.message)}`,
    );
    const total = result.converted + result.notConverted.length;
    lines.push(
        `${visible(json.annotationFile)}: ${result.converted} of ${total} ${json.provider} citation${total === 1 ? "" : "s"} imported` +
            `${result.writeAnswer ? `, answer written to ${visible(json.answer)}` : ` (answer ${visible(json.answer)})`}` +
            ` (exit ${json.exitCode})`,
    );
    if (json.lock === undefined) lines.push(`next: sourcecheck lock ${visible(json.annotationFile)}`);
    return `${lines.join("\n")}\n`;
}
