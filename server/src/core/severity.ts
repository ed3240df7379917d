/**
 * Severity per code (docs/codes.md, "Severity per code"): `"severity": { "<code>": "error" | "warning"
 * | "info" | "off" }` in sourcecheck.config.json, and the editor's `sourcecheck.severity` setting over
 * it. This module is the one place a problem's level is decided: the check (core/check.ts) applies it
 * for the CLI's outputs and exit status, the MCP and VS Code `check` tools; the editor's diagnostics
 * (features/diagnostics.ts) apply it to the problems they publish. Pure.
 */
import { RESOLUTION_ERROR_CODES } from "./types";

export type SeverityLevel = "error" | "warning" | "info" | "off";
export const SEVERITY_LEVELS: readonly SeverityLevel[] = ["error", "warning", "info", "off"];

/** What a level is decided from: a problem of core/check.ts (no `severity` is an error). */
export interface LeveledProblem {
    code: string;
    severity?: "warning" | "information";
}

/** A level per code; a code left out keeps its own level. */
export type SeverityPolicy = Readonly<Record<string, SeverityLevel>>;

/** Findings on refs that resolve (docs/contract.md, "Warnings"). */
const FINDING_CODES = ["text-changed", "unlocked", "self-citation", "mid-word-boundary"] as const;

/**
 * The codes whose level a project may set: ref failures and findings. Schema codes are not among them:
 * a file failing the schema cannot be checked at all, so it stays an error and exit 2.
 */
export const CONFIGURABLE_CODES: readonly string[] = [...RESOLUTION_ERROR_CODES, ...FINDING_CODES];

/** A problem's own level: no `severity` is an error. */
function ownLevel(problem: Pick<LeveledProblem, "severity">): SeverityLevel {
    return problem.severity === undefined ? "error" : problem.severity === "warning" ? "warning" : "info";
}

/**
 * The level a problem is reported at under `policy`. A finding the check made an error on purpose
 * (`check --locked` makes drift and unlocked refs errors: the gate asked for it on the command line)
 * stays an error whatever the policy says.
 */
export function problemLevel(problem: LeveledProblem, policy?: SeverityPolicy): SeverityLevel {
    const own = ownLevel(problem);
    const configured = policy && Object.hasOwn(policy, problem.code) ? policy[problem.code] : undefined;
    if (configured === undefined || !CONFIGURABLE_CODES.includes(problem.code)) return own;
    if (own === "error" && (FINDING_CODES as readonly string[]).includes(problem.code)) return own;
    return configured;
}

/** The problems as reported under `policy`: "off" ones left out, the others at their level. */
export function applySeverity<P extends LeveledProblem>(problems: readonly P[], policy: SeverityPolicy): P[] {
    const out: P[] = [];
    for (const problem of problems) {
        const level = problemLevel(problem, policy);
        if (level === "off") continue;
        const severity = level === "error" ? undefined : level === "warning" ? "warning" : "information";
        if (severity === problem.severity) out.push(problem);
        else {
            const copy = { ...problem };
            if (severity === undefined) delete copy.severity;
            else copy.severity = severity;
            out.push(copy);
        }
    }
    return out;
}

/** Whether a problem reported at its level fails the check (exit 1): an error that is not a schema error. */
export function failsCheck(problem: Pick<LeveledProblem, "severity">): boolean {
    return problem.severity === undefined;
}

/** A policy read from a setting or a configuration's value, and what was wrong with it (each item once). */
export interface SeverityRead {
    policy: Record<string, SeverityLevel>;
    problems: { code?: string; message: string }[];
}

/** Read `{ "<code>": level }`: unknown codes and levels are reported and left out, never guessed. */
export function readSeverityPolicy(value: unknown): SeverityRead {
    const read: SeverityRead = { policy: {}, problems: [] };
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
        read.problems.push({ message: "must be an object of codes and levels (error, warning, info, off)" });
        return read;
    }
    for (const [code, level] of Object.entries(value)) {
        if (!CONFIGURABLE_CODES.includes(code)) {
            read.problems.push({ code, message: severityCodeProblem(code) });
        } else if (typeof level !== "string" || !(SEVERITY_LEVELS as readonly string[]).includes(level)) {
            read.problems.push({ code, message: `${code}: the level is error, warning, info or off` });
        } else read.policy[code] = level as SeverityLevel;
    }
    return read;
}

function severityCodeProblem(code: string): string {
    if (["invalid-json", "schema", "duplicate-path", "cr-in-content"].includes(code))
        return `${JSON.stringify(code)} is a schema error: it always fails the check (exit 2)`;
    return `unknown code ${JSON.stringify(code)}: use one of ${CONFIGURABLE_CODES.join(", ")}`;
}

/** Two policies as one: `over` wins code by code (the editor's setting over the project's configuration). */
export function mergeSeverity(
    under: SeverityPolicy | undefined,
    over: SeverityPolicy | undefined,
): SeverityPolicy | undefined {
    if (!under || Object.keys(under).length === 0) return over && Object.keys(over).length > 0 ? over : undefined;
    if (!over || Object.keys(over).length === 0) return under;
    return { ...under, ...over };
}
