/**
 * SARIF 2.1.0 output of `check`, for code scanning (docs/ci.md, "SARIF"): one result per problem,
 * one rule per code, each rule documented in docs/codes.md. Artifact locations are relative to the
 * repository root (`%SRCROOT%`), percent-encoded, whatever form the input path had; a file outside
 * the repository gets an absolute `file:` URI. Each result has a fingerprint that does not move with
 * line numbers, so an alert is tracked across commits.
 */

import * as fs from "node:fs";
import * as nodePath from "node:path";
import { pathToFileURL } from "node:url";
import { MORE_PROBLEMS } from "../core/check";
import { RESOLUTION_ERROR_CODES, SCHEMA_ERROR_CODES } from "../core/types";
import { visible } from "../core/visible";
import { climbsOut } from "../workspace/pathSafety";
import type { LocatedProblem } from "./text";

const INFORMATION_URI = "https://github.com/sourcecheck/sourcecheck-vscode";
const CODES_DOC = `${INFORMATION_URI}/blob/main/docs/codes.md`;
/** The base the relative artifact URIs are resolved against: the repository root. */
export const SOURCE_ROOT = "%SRCROOT%";
/** Key of the fingerprint in `partialFingerprints`; the version changes if its recipe does. */
export const FINGERPRINT_KEY = "sourcecheckProblem/v1";

/** What each code means (docs/codes.md says the same, at more length) and how to fix it. */
const RULES: Record<string, { short: string; full: string; fix: string }> = {
    "invalid-json": {
        short: "The annotation file is not valid JSON.",
        full: "The annotation file is not valid JSON (or not UTF-8 text).",
        fix: "Fix the syntax at the reported position.",
    },
    schema: {
        short: "A field is missing or has the wrong type or value.",
        full: "A field of the annotation file is missing or has the wrong type or value.",
        fix: "Correct the field the JSON pointer names; the schema is `schemas/sourcecheck.schema.json`.",
    },
    "duplicate-path": {
        short: "Two documents of a session share a path.",
        full: "Two documents of an embedded session have the same `path`, so a ref to it could mean either.",
        fix: "Give each document its own path.",
    },
    "cr-in-content": {
        short: "A document of an embedded session contains a carriage return.",
        full: "A document of an embedded session contains a carriage return; sessions hold LF-normalised text.",
        fix: "Replace CRLF and CR with LF (`sourcecheck session` writes a normalised session).",
    },
    "unknown-path": {
        short: "No document of the session has the ref's path.",
        full: "No document of the embedded session has the ref's `path`.",
        fix: "Correct the path, or add the document to the session.",
    },
    "line-out-of-range": {
        short: "The ref's line does not exist in the document.",
        full: "The ref's `line` does not exist in the document; the message gives the document's line count.",
        fix: "Run `sourcecheck repair` to find where the text went, or re-cite the span.",
    },
    "boundary-not-found": {
        short: "The boundary string does not occur on its line.",
        full: "The boundary string (`start.str` or `end.str`) does not occur on its line.",
        fix: "Run `sourcecheck repair`, which proposes the moved ref, or re-cite the span.",
    },
    "boundary-ambiguous": {
        short: "The boundary string occurs more than once on its line.",
        full: "The boundary string occurs more than once on its line, so the span it marks is not determined.",
        fix: "Extend the boundary string, word by word, until it occurs once on its line.",
    },
    "inverted-lines": {
        short: "The ref's start line comes after its end line.",
        full: "The ref's start line comes after its end line.",
        fix: "Swap the lines, or re-cite the span.",
    },
    "inverted-boundaries": {
        short: "On one line, the span would not contain both boundary strings.",
        full: "On one line, the span would not contain both boundary strings whole.",
        fix: "Re-cite the span.",
    },
    "path-outside-root": {
        short: "The document path leads outside the document root.",
        full: "The document path leads outside the document root: absolute, `..` climbing out, `~`, a URL or drive letter, or a symlink leading out.",
        fix: "Cite a path relative to the document root, or move the root (`--root`, `sourcecheck.config.json`).",
    },
    "unreadable-document": {
        short: "The document cannot be read as UTF-8 text within the size cap.",
        full: "The cited document cannot be read as UTF-8 text: missing, a directory or device, binary, not UTF-8, or over the size cap.",
        fix: "Correct the path or the file, or raise the size cap (`--max-size`, `maxDocumentSize`).",
    },
    "text-changed": {
        short: "The ref resolves to other text than the text locked for it.",
        full: "The ref resolves to other text than the text its lock (sourcecheck.lock.json) recorded for it.",
        fix: "Check the claim against the new text, then run `sourcecheck lock` to record it.",
    },
    unlocked: {
        short: "The ref resolves but its lock has no entry for it (check --locked).",
        full: "The ref resolves but the lock has no entry for it; with `check --locked` that is an error.",
        fix: "Run `sourcecheck lock` to record the ref's text.",
    },
    "self-citation": {
        short: "A source's span overlaps its own claim's span.",
        full: "A source's span overlaps its own claim's span: the claim cites itself.",
        fix: "Cite the evidence, not the claim.",
    },
    "mid-word-boundary": {
        short: "A boundary starts or ends inside a word.",
        full: "A boundary string starts or ends inside a word.",
        fix: "Extend the boundary string to a word edge.",
    },
    "more-problems": {
        short: "More problems were found in the file than are listed.",
        full: "At most 1,000 problems are listed per file; this note counts the rest.",
        fix: "Fix the problems listed (often one mistake repeated) and check again.",
    },
};

/** Findings on resolving refs: warnings by default (docs/contract.md, "Warnings"). */
const WARNING_CODES = ["text-changed", "unlocked", "self-citation", "mid-word-boundary"];

/** Notes about the output itself: level note. */
const NOTE_CODES = [MORE_PROBLEMS];

const CODES: string[] = [...SCHEMA_ERROR_CODES, ...RESOLUTION_ERROR_CODES, ...WARNING_CODES, ...NOTE_CODES];

/** Names for one-word codes, which would otherwise equal their id but for case. */
const ONE_WORD_NAMES: Record<string, string> = { schema: "SchemaViolation", unlocked: "RefNotLocked" };

/** Markdown to plain text for the `text` forms: the backticks go. */
const plain = (markdown: string) => markdown.replace(/`/g, "");

export function sarifRule(code: string) {
    const rule = RULES[code];
    const helpUri = `${CODES_DOC}#${code}`;
    return {
        id: code,
        // A readable name that differs from the id (SARIF wants them distinct): BoundaryNotFound.
        name: ONE_WORD_NAMES[code] ?? code.replace(/(^|-)([a-z])/g, (_, _dash, c: string) => c.toUpperCase()),
        shortDescription: { text: plain(rule.short) },
        fullDescription: { text: plain(rule.full), markdown: rule.full },
        help: {
            text: `${plain(rule.full)} ${plain(rule.fix)} See ${helpUri}`,
            markdown: `${rule.full}\n\n**Fix:** ${rule.fix}\n\n[docs/codes.md](${helpUri})`,
        },
        helpUri,
        defaultConfiguration: { level: levelOf(code) },
        properties: {
            tags: ["citations"],
            precision: "very-high",
            "problem.severity": NOTE_CODES.includes(code) ? "recommendation" : levelOf(code),
        },
    };
}

function levelOf(code: string): "error" | "warning" | "note" {
    return WARNING_CODES.includes(code) ? "warning" : NOTE_CODES.includes(code) ? "note" : "error";
}

/**
 * The repository the run is about: the nearest folder from `cwd` up that holds `.git` (a folder, or
 * a file in a worktree or submodule), else `cwd` itself.
 */
export function repositoryRoot(cwd: string): string {
    let root = repositoryRoots.get(cwd);
    if (root !== undefined) return root;
    for (let dir = nodePath.resolve(cwd); root === undefined; ) {
        const parent = nodePath.dirname(dir);
        if (fs.existsSync(nodePath.join(dir, ".git"))) root = dir;
        else if (parent === dir) root = nodePath.resolve(cwd);
        dir = parent;
    }
    repositoryRoots.set(cwd, root);
    return root;
}
/** Looked up once per current folder (a run makes one job per file). */
const repositoryRoots = new Map<string, string>();

/** Each path segment percent-encoded, as a relative URI reference. */
function encodePath(relative: string): string {
    return relative.split(/[\\/]/).map(encodeURIComponent).join("/");
}

/** Where the file is: relative to `root` with `%SRCROOT%` when inside it, else an absolute file URI. */
export function artifactLocation(absolutePath: string, root: string): { uri: string; uriBaseId?: string } {
    const relative = nodePath.relative(root, absolutePath);
    if (relative && !climbsOut(relative)) {
        return { uri: encodePath(relative), uriBaseId: SOURCE_ROOT };
    }
    return { uri: pathToFileURL(absolutePath).href };
}

/** The root as a directory URI (ending with `/`), for `originalUriBaseIds`. */
function rootUri(root: string): string {
    const href = pathToFileURL(root).href;
    return href.endsWith("/") ? href : `${href}/`;
}

export function formatSarif(problems: LocatedProblem[], version: string, cwd: string): string {
    const root = repositoryRoot(cwd);
    const sarif = sarifLog(version, root);
    sarif.runs[0].results = problems.map((p) => sarifResult(p, nodePath.resolve(cwd, p.file), root));
    return `${JSON.stringify(sarif, null, 2)}\n`;
}

/** The log around the results, so a stream can write its head, results as they come, then its tail. */
export function sarifLog(version: string, root: string) {
    return {
        $schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [
            {
                tool: {
                    driver: {
                        name: "sourcecheck",
                        version,
                        semanticVersion: version,
                        informationUri: INFORMATION_URI,
                        rules: CODES.map(sarifRule),
                    },
                },
                originalUriBaseIds: { [SOURCE_ROOT]: { uri: rootUri(root) } },
                columnKind: "utf16CodeUnits",
                results: [] as unknown[],
            },
        ],
    };
}

/** Head and tail of a SARIF log whose results are written in between, one object each, comma-separated. */
export function sarifFrame(version: string, root: string): { head: string; tail: string } {
    const marker = '"@@results@@"';
    const text = JSON.stringify(sarifLog(version, root), null, 2).replace('"results": []', `"results": [${marker}]`);
    const at = text.indexOf(marker);
    return { head: `${text.slice(0, at)}\n`, tail: `\n${text.slice(at + marker.length)}\n` };
}

/**
 * One result. The fingerprint hashes what identifies the problem and not where its lines are: the
 * file's location, the code, the JSON pointer and the message (which names the cited text).
 */
export function sarifResult(p: LocatedProblem, absolutePath: string, root: string) {
    const location = artifactLocation(absolutePath, root);
    const fingerprint = (require("node:crypto") as typeof import("node:crypto"))
        .createHash("sha256")
        .update([location.uri, p.code, p.pointer, p.message].join("\0"))
        .digest("hex")
        .slice(0, 32);
    return {
        ruleId: p.code,
        ruleIndex: CODES.indexOf(p.code),
        level: p.severity === "warning" ? "warning" : p.severity === "information" ? "note" : "error",
        // Shown to people in code scanning: controls and bidi overrides escaped (docs/security.md, "Outputs").
        message: { text: visible(p.message) },
        locations: [
            {
                physicalLocation: {
                    artifactLocation: location,
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
        partialFingerprints: { [FINGERPRINT_KEY]: fingerprint },
    };
}
