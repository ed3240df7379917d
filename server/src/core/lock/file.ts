/**
 * The lock file on disk (docs/lock.md): its name beside the annotation file, its deterministic text
 * (2-space JSON with one line per entry, LF, final newline, stable order) and reading it back with a clear error for every
 * way it can be wrong. The schema is published as schemas/sourcecheck-lock.schema.json; this is the
 * same shape as code (zod, already a dependency of the agent tools).
 */

import { pointerWithReading } from "../../../../shared/numbering";
import { ordered } from "./entry";
import { sortEntries } from "./relock";
import { LOCK_VERSION, type LockBasis, type LockError, type LockFile, MAX_LOCK_FIELD } from "./types";

// The names alone live in ./names (no zod): the evidence bundle needs them and should stay small.
export { isLockFileName, lockFileNameFor } from "./names";

/**
 * The frame indented by 2 spaces, one line per entry (its fields in a fixed order): locking again
 * changes one line per moved or changed ref, so a pull request shows a small diff, and the file is a
 * third of the size of fully indented JSON, which made reading and writing a 100,000-annotation lock
 * cost many times a check (docs/lock.md, "Deterministic text").
 */
export function serializeLock(lock: LockFile, entries = serializeEntries(lock)): string {
    const head = `{\n  "lockVersion": ${JSON.stringify(lock.lockVersion)},\n  "annotationFile": ${JSON.stringify(lock.annotationFile)},\n`;
    if (!lock.basis) return `${head}${entries}`;
    const documents = Object.entries(lock.basis.documents).map(
        ([path, hash]) => `      ${JSON.stringify(path)}: ${JSON.stringify(hash)}`,
    );
    return (
        `${head}  "basis": {\n` +
        `    "annotationFileSha256": ${JSON.stringify(lock.basis.annotationFileSha256)},\n` +
        `    "entriesSha256": ${JSON.stringify(lock.basis.entriesSha256)},\n` +
        `    "documents": ${documents.length === 0 ? "{}" : `{\n${documents.join(",\n")}\n    }`}\n  },\n${entries}`
    );
}

/** The lock's text from its `ENTRIES_LINE` to its end: what a basis's `entriesSha256` is the hash of. */
export function serializeEntries(lock: LockFile): string {
    const lines: string[] = [];
    for (const [key, entry] of Object.entries(sortEntries(lock.entries)))
        lines.push(`    ${JSON.stringify(key)}: ${JSON.stringify(ordered(entry))}`);
    return `${ENTRIES_LINE}${lines.length === 0 ? "{}" : `{\n${lines.join(",\n")}\n  }`}\n}\n`;
}

/**
 * Where a lock's entries begin, as `serializeLock` writes it: the basis's `entriesSha256` covers the
 * bytes from here to the end. Never inside the header: a newline in a path is written escaped.
 */
export const ENTRIES_LINE = '  "entries": ';

/**
 * The basis in a lock's header: the text before its `ENTRIES_LINE` (workspace/lockFiles.ts finds it
 * in the bytes and compares `entriesSha256` with the bytes after it). Undefined for anything but a
 * header `serializeLock` writes for this annotation file: the caller then reads the lock whole.
 */
export function basisOfHeader(header: string, annotationFileName: string): LockBasis | undefined {
    let value: unknown;
    try {
        value = JSON.parse(`${header}"entries": {}}`);
    } catch {
        return undefined;
    }
    if (!hasOnly(value, ["lockVersion", "annotationFile", "entries", "basis"])) return undefined;
    if (value.lockVersion !== LOCK_VERSION || value.annotationFile !== annotationFileName) return undefined;
    return isBasis(value.basis) ? value.basis : undefined;
}

/**
 * The schema as zod, in a module of its own loaded on first use (a bundle of its own in dist/): the
 * hand check below decides and zod only words what is wrong, so a check with valid locks never
 * parses zod (start-up: docs/architecture.md, "CLI bundles").
 */
function zodSchemas(): typeof import("./lockZodSchema").LOCK_ZOD_SCHEMAS {
    return (require("./lockZodSchema") as typeof import("./lockZodSchema")).LOCK_ZOD_SCHEMAS;
}

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
/** A text field of an entry, capped on read (docs/security.md, "Resource bounds"). */
const isField = (v: unknown) => typeof v === "string" && v.length <= MAX_LOCK_FIELD;
const isOptionalField = (v: unknown) => v === undefined || isField(v);

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
        isOptionalField(e.text) &&
        isOptionalField(e.head) &&
        isOptionalField(e.tail) &&
        isField(e.prefix) &&
        isField(e.suffix) &&
        typeof e.documentSha256 === "string" &&
        HEX64.test(e.documentSha256) &&
        (e.text !== undefined || (e.head !== undefined && e.tail !== undefined))
    );
}

const isSha = (v: unknown) => typeof v === "string" && HEX64.test(v);

/** The basis schema above, checked without copying. */
function isBasis(v: unknown): v is LockBasis {
    if (!hasOnly(v, ["annotationFileSha256", "entriesSha256", "documents"])) return false;
    if (!isSha(v.annotationFileSha256) || !isSha(v.entriesSha256)) return false;
    const documents = v.documents;
    if (typeof documents !== "object" || documents === null || Array.isArray(documents)) return false;
    for (const path in documents) {
        if (!Object.hasOwn(documents, path)) continue;
        const hash = (documents as Record<string, unknown>)[path];
        if (path === "" || (hash !== null && !isSha(hash))) return false;
    }
    return true;
}

function conformsToLockSchema(value: unknown): boolean {
    if (!hasOnly(value, ["lockVersion", "annotationFile", "entries"], ["basis"])) return false;
    if (value.lockVersion !== LOCK_VERSION || typeof value.annotationFile !== "string" || value.annotationFile === "")
        return false;
    if (value.basis !== undefined && !isBasis(value.basis)) return false;
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
    const parsed = zodSchemas().entry.safeParse(entry);
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
        : zodSchemas().lock.safeParse(value);
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
