/**
 * The lock file on disk (docs/lock.md): its name beside the annotation file, its deterministic text
 * (2-space JSON, LF, final newline, stable order) and reading it back with a clear error for every
 * way it can be wrong. The schema is published as schemas/sourcecheck-lock.schema.json; this is the
 * same shape as code (zod, already a dependency of the agent tools).
 */
import { z } from "zod";
import { pointerWithReading } from "../../../../shared/numbering";
import { sortEntries } from "./relock";
import { LOCK_VERSION, type LockError, type LockFile } from "./types";

/**
 * `X.sourcecheck.json` -> `X.sourcecheck.lock.json`, `X.annotations.json` -> `X.annotations.lock.json`,
 * any other `X.json` (a custom annotation-file glob) -> `X.lock.json`.
 */
export function lockFileNameFor(annotationFileName: string): string {
    return annotationFileName.endsWith(".json")
        ? `${annotationFileName.slice(0, -".json".length)}.lock.json`
        : `${annotationFileName}.lock.json`;
}

/** Lock files are never annotation files, whatever glob would match them. */
export function isLockFileName(fileName: string): boolean {
    return fileName.endsWith(".lock.json");
}

export function serializeLock(lock: LockFile): string {
    const out: LockFile = {
        lockVersion: lock.lockVersion,
        annotationFile: lock.annotationFile,
        entries: sortEntries(lock.entries),
    };
    return `${JSON.stringify(out, null, 2)}\n`;
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
    const parsed = lockSchema.safeParse(value);
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
