/** SARIF 2.1.0 output of `check`, for code-scanning tools: one result per problem, one rule per code. */
import { RESOLUTION_ERROR_CODES, SCHEMA_ERROR_CODES } from "../core/types";
import type { LocatedProblem } from "./text";

const RULE_TEXT: Record<string, string> = {
    "invalid-json": "The annotation file is not valid JSON.",
    schema: "A field is missing or has the wrong type or value.",
    "duplicate-path": "Two documents of a session share a path.",
    "cr-in-content": "A document of an embedded session contains a carriage return.",
    "unknown-path": "No document of the session has the ref's path.",
    "line-out-of-range": "The ref's line does not exist in the document.",
    "boundary-not-found": "The boundary string does not occur on its line.",
    "boundary-ambiguous": "The boundary string occurs more than once on its line.",
    "inverted-lines": "The ref's start line comes after its end line.",
    "inverted-boundaries": "On one line, the span would not contain both boundary strings.",
    "path-outside-root": "The document path leads outside the document root.",
    "unreadable-document": "The document cannot be read as UTF-8 text within the size cap.",
    "text-changed": "The ref resolves to other text than the text locked for it.",
    unlocked: "The ref resolves but its lock has no entry for it (check --locked).",
    "self-citation": "A source's span overlaps its own claim's span.",
    "mid-word-boundary": "A boundary starts or ends inside a word.",
};

/** Findings on resolving refs: warnings by default (docs/contract.md, "Warnings"). */
const WARNING_CODES = ["text-changed", "unlocked", "self-citation", "mid-word-boundary"];

export function formatSarif(problems: LocatedProblem[], version: string): string {
    const sarif = sarifLog(version);
    sarif.runs[0].results = problems.map(sarifResult);
    return `${JSON.stringify(sarif, null, 2)}\n`;
}

/** The log around the results, so a stream can write its head, results as they come, then its tail. */
export function sarifLog(version: string) {
    return {
        $schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [
            {
                tool: {
                    driver: {
                        name: "sourcecheck",
                        version,
                        informationUri: "https://github.com/sourcecheck/sourcecheck-vscode",
                        rules: CODES.map((code) => ({
                            id: code,
                            shortDescription: { text: RULE_TEXT[code] },
                            defaultConfiguration: { level: WARNING_CODES.includes(code) ? "warning" : "error" },
                        })),
                    },
                },
                columnKind: "utf16CodeUnits",
                results: [] as unknown[],
            },
        ],
    };
}

/** Head and tail of a SARIF log whose results are written in between, one object each, comma-separated. */
export function sarifFrame(version: string): { head: string; tail: string } {
    const marker = '"@@results@@"';
    const text = JSON.stringify(sarifLog(version), null, 2).replace('"results": []', `"results": [${marker}]`);
    const at = text.indexOf(marker);
    return { head: `${text.slice(0, at)}\n`, tail: `\n${text.slice(at + marker.length)}\n` };
}

const CODES: string[] = [...SCHEMA_ERROR_CODES, ...RESOLUTION_ERROR_CODES, ...WARNING_CODES];

export function sarifResult(p: LocatedProblem) {
    return {
        ruleId: p.code,
        ruleIndex: CODES.indexOf(p.code),
        level: p.severity === "warning" ? "warning" : p.severity === "information" ? "note" : "error",
        message: { text: p.message },
        locations: [
            {
                physicalLocation: {
                    artifactLocation: { uri: p.file.replace(/\\/g, "/") },
                    region: {
                        startLine: p.start.line,
                        startColumn: p.start.column,
                        endLine: p.end.line,
                        endColumn: p.end.column,
                    },
                },
                logicalLocations: [{ fullyQualifiedName: p.pointer || "/", kind: "member" }],
            },
        ],
    };
}
