/**
 * The lock file on disk (docs/lock.md): its name beside the annotation file, its deterministic text
 * (2-space JSON with one line per entry, LF, final newline, stable order) and reading it back with a clear error for every
 * way it can be wrong. The schema is published as schemas/sourcecheck-lock.schema.json; ./lockProblem.ts
 * checks it by hand, and ./lockZodSchema.ts is the same shape as zod (the oracle of that check's test).
 */

import { pointerWithReading } from "../../../../shared/numbering";
import { ordered } from "./entry";
import { isLockBasis, lockProblem } from "./lockProblem";
import { sortEntries } from "./relock";
import { LOCK_VERSION, type LockBasis, type LockError, type LockFile } from "./types";

export { conformsToLockEntry, type LockProblem, lockEntryProblem } from "./lockProblem";
// The names alone live in ./names: the evidence bundle needs them and should stay small.
export { isLockFileName, lockFileNameFor } from "./names";

const HEADER_KEYS = ["lockVersion", "annotationFile", "entries", "basis"];

function isRecord(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

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
    if (!isRecord(value) || Object.keys(value).length !== HEADER_KEYS.length) return undefined;
    if (!HEADER_KEYS.every((key) => Object.hasOwn(value, key))) return undefined;
    if (value.lockVersion !== LOCK_VERSION || value.annotationFile !== annotationFileName) return undefined;
    return isLockBasis(value.basis) ? value.basis : undefined;
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
    // By hand, without copying (./lockProblem.ts; a property test holds it to the zod schema).
    const problem = lockProblem(value);
    if (problem) {
        const pointer = problem.path.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
        return {
            error: {
                code: "lock-schema",
                pointer,
                message: `the lock does not follow its schema at ${pointerWithReading(pointer)}: ${problem.message}`,
            },
        };
    }
    const lock = value as LockFile;
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
