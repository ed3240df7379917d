/**
 * The lock file on disk (docs/lock.md): its name beside the annotation file, its deterministic text
 * (2-space JSON with one line per entry, LF, final newline, stable order) and reading it back with a clear error for every
 * way it can be wrong. The schema is published as schemas/sourcecheck-lock.schema.json; this is the
 * same shape as code (zod, already a dependency of the agent tools).
 */

import { z } from "zod";
import { pointerWithReading } from "../../../../shared/numbering";
import { ordered } from "./entry";
import { sortEntries } from "./relock";
import { LOCK_VERSION, type LockError, type LockFile } from "./types";

// The names alone live in ./names (no zod): the evidence bundle needs them and should stay small.
export { isLockFileName, lockFileNameFor } from "./names";

/**
 * The frame indented by 2 spaces, one line per entry (its fields in a fixed order): locking again
 * changes one line per moved or changed ref, so a pull request shows a small diff, and the file is a
 * third of the size of fully indented JSON, which made reading and writing a 100,000-annotation lock
 * cost many times a check (docs/lock.md, "Format").
 */
export function serializeLock(lock: LockFile): string {
    const lines: string[] = [];
    for (const [key, entry] of Object.entries(sortEntries(lock.entries)))
        lines.push(`    ${JSON.stringify(key)}: ${JSON.stringify(ordered(entry))}`);
    const entries = lines.length === 0 ? "{}" : `{\n${lines.join(",\n")}\n  }`;
    return `{\n  "lockVersion": ${JSON.stringify(lock.lockVersion)},\n  "annotationFile": ${JSON.stringify(lock.annotationFile)},\n  "entries": ${entries}\n}\n`;
}

const boundary = z.strictObject({ line: z.number().int().min(1), str: z.string().min(1) });
const position = z.strictObject({ line: z.number().int().min(1), column: z.number().int().min(0) });
const sha = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 as 64 lowercase hex digits");
const entrySchema = z
    .strictObject({
        ref: z.strictObject({ path: z.string().min(1), start: boundary, end: boundary }),
        range: z.strictObject({ start: position, end: position }),
        sha256: sha,
        length: z.number().int().min(0),
        text: z.string().optional(),
        head: z.string().optional(),
        tail: z.string().optional(),
        prefix: z.string(),
        suffix: z.string(),
        documentSha256: sha,
    })
    .refine((e) => e.text !== undefined || (e.head !== undefined && e.tail !== undefined), {
        message: "an entry needs its text, or its head and tail",
    });
const lockSchema = z.strictObject({
    lockVersion: z.literal(LOCK_VERSION),
    annotationFile: z.string().min(1),
    entries: z.record(z.string().min(1), entrySchema),
});

const HEX64 = /^[0-9a-f]{64}$/;

function isInt(value: unknown, min: number): boolean {
    return typeof value === "number" && Number.isInteger(value) && value >= min;
}

function hasOnly(
    value: unknown,
    keys: readonly string[],
    optional: readonly string[] = [],
): value is Record<string, unknown> {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    let count = 0;
    for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (!keys.includes(key) && !optional.includes(key)) return false;
        count++;
    }
    for (const key of keys) if (!Object.hasOwn(value, key)) return false;
    return count >= keys.length;
}

const isBoundary = (v: unknown) =>
    hasOnly(v, ["line", "str"]) && isInt(v.line, 1) && typeof v.str === "string" && v.str.length > 0;
const isPosition = (v: unknown) => hasOnly(v, ["line", "column"]) && isInt(v.line, 1) && isInt(v.column, 0);
const isOptionalString = (v: unknown) => v === undefined || typeof v === "string";

/** The entry schema above, checked without copying. */
export function conformsToLockEntry(e: unknown): boolean {
    if (
        !hasOnly(
            e,
            ["ref", "range", "sha256", "length", "prefix", "suffix", "documentSha256"],
            ["text", "head", "tail"],
        )
    )
        return false;
    const { ref, range } = e;
    return (
        hasOnly(ref, ["path", "start", "end"]) &&
        typeof ref.path === "string" &&
        ref.path.length > 0 &&
        isBoundary(ref.start) &&
        isBoundary(ref.end) &&
        hasOnly(range, ["start", "end"]) &&
        isPosition(range.start) &&
        isPosition(range.end) &&
        typeof e.sha256 === "string" &&
        HEX64.test(e.sha256) &&
        isInt(e.length, 0) &&
        isOptionalString(e.text) &&
        isOptionalString(e.head) &&
        isOptionalString(e.tail) &&
        typeof e.prefix === "string" &&
        typeof e.suffix === "string" &&
        typeof e.documentSha256 === "string" &&
        HEX64.test(e.documentSha256) &&
        (e.text !== undefined || (e.head !== undefined && e.tail !== undefined))
    );
}

function conformsToLockSchema(value: unknown): boolean {
    if (!hasOnly(value, ["lockVersion", "annotationFile", "entries"])) return false;
    if (value.lockVersion !== LOCK_VERSION || typeof value.annotationFile !== "string" || value.annotationFile === "")
        return false;
    const entries = value.entries;
    if (typeof entries !== "object" || entries === null || Array.isArray(entries)) return false;
    for (const key in entries) {
        if (!Object.hasOwn(entries, key)) continue;
        if (key === "" || !conformsToLockEntry((entries as Record<string, unknown>)[key])) return false;
    }
    return true;
}

/** What zod says of one entry (the oracle of the hand check's test). */
export function lockEntryProblem(entry: unknown): string | undefined {
    const parsed = entrySchema.safeParse(entry);
    return parsed.success ? undefined : parsed.error.issues[0].message;
}

export type ParsedLock = { lock: LockFile; error?: undefined } | { lock?: undefined; error: LockError };

/**
 * Read a lock's text. `annotationFileName` is the file name of the annotation file it sits beside:
 * a lock naming another file was copied or renamed and is foreign, never silently used.
 */
export function parseLock(text: string, annotationFileName: string): ParsedLock {
    let value: unknown;
    try {
        value = JSON.parse(text);
    } catch (error) {
        return {
            error: { code: "lock-invalid-json", message: `the lock is not valid JSON: ${(error as Error).message}` },
        };
    }
    // The hand check accepts exactly what the schema accepts (a property test holds it to zod) and
    // copies nothing; zod, which copies every entry, runs only to word what is wrong.
    const parsed = conformsToLockSchema(value)
        ? ({ success: true, data: value } as const)
        : lockSchema.safeParse(value);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const pointer = issue.path.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
        return {
            error: {
                code: "lock-schema",
                pointer,
                message: `the lock does not follow its schema at ${pointerWithReading(pointer)}: ${issue.message}`,
            },
        };
    }
    const lock = parsed.data as LockFile;
    if (lock.annotationFile !== annotationFileName) {
        return {
            error: {
                code: "lock-foreign",
                message: `the lock belongs to ${JSON.stringify(lock.annotationFile)}, not ${JSON.stringify(annotationFileName)}: run \`sourcecheck lock\` to lock this file`,
            },
        };
    }
    return { lock };
}
