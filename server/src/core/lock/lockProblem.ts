/**
 * What is wrong with a lock's value, by hand (docs/lock.md, "Reading a lock"): the first place that
 * does not follow the lock's schema, as a path and a clause. It accepts exactly what the schema in
 * ./lockZodSchema.ts accepts (test/unit/lockSchemaCheck.test.ts holds it to zod on generated
 * entries) and copies nothing; zod itself is not loaded to read a lock, on Node or in the browser,
 * because it is half of the web worker's size budget (docs/web.md).
 */

import { LOCK_VERSION, type LockBasis, MAX_LOCK_FIELD } from "./types";

/** Where the value breaks the schema (object keys and nothing else), and what is wrong there. */
export interface LockProblem {
    path: string[];
    message: string;
}

type Fields = Record<string, unknown>;

const HEX64 = /^[0-9a-f]{64}$/;
const SHA_MESSAGE = "a SHA-256 as 64 lowercase hex digits";
const FIELD_MESSAGE = `at most ${MAX_LOCK_FIELD} characters (sourcecheck lock writes fewer: this entry was edited by hand)`;

// Each check returns its problem with a path relative to the value it was given; `within` prefixes
// the key on the way out, so a value that follows the schema allocates nothing (a lock can hold
// 100,000 entries, each checked as it is read: docs/lock.md).
const at = (message: string, ...path: string[]): LockProblem => ({ path, message });

function within(key: string, problem: LockProblem | undefined): LockProblem | undefined {
    if (problem) problem.path.unshift(key);
    return problem;
}

function isRecord(value: unknown): value is Fields {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An object with exactly `keys` and any of `optional`: a missing key is named at its own path. */
function shapeProblem(
    value: unknown,
    keys: readonly string[],
    optional: readonly string[] = [],
): LockProblem | undefined {
    if (!isRecord(value)) return at("expected an object");
    for (const key of keys) if (!Object.hasOwn(value, key)) return at("required", key);
    for (const key in value) {
        if (Object.hasOwn(value, key) && !keys.includes(key) && !optional.includes(key))
            return at(`unrecognized key ${JSON.stringify(key)}`);
    }
    return undefined;
}

function intProblem(value: unknown, min: number): LockProblem | undefined {
    if (typeof value === "number" && Number.isInteger(value) && value >= min) return undefined;
    return at(`expected an integer of at least ${min}`);
}

function textProblem(value: unknown): LockProblem | undefined {
    return typeof value === "string" && value.length > 0 ? undefined : at("expected a non-empty string");
}

function shaProblem(value: unknown): LockProblem | undefined {
    return typeof value === "string" && HEX64.test(value) ? undefined : at(SHA_MESSAGE);
}

/** A text field of an entry, capped on read (docs/security.md, "Resource bounds"). */
function fieldProblem(value: unknown, optional = false): LockProblem | undefined {
    if (value === undefined && optional) return undefined;
    if (typeof value !== "string") return at("expected a string");
    return value.length <= MAX_LOCK_FIELD ? undefined : at(FIELD_MESSAGE);
}

function boundaryProblem(value: unknown): LockProblem | undefined {
    const shape = shapeProblem(value, ["line", "str"]);
    if (shape) return shape;
    const { line, str } = value as Fields;
    return within("line", intProblem(line, 1)) ?? within("str", textProblem(str));
}

function positionProblem(value: unknown): LockProblem | undefined {
    const shape = shapeProblem(value, ["line", "column"]);
    if (shape) return shape;
    const { line, column } = value as Fields;
    return within("line", intProblem(line, 1)) ?? within("column", intProblem(column, 0));
}

function refProblem(value: unknown): LockProblem | undefined {
    const shape = shapeProblem(value, ["path", "start", "end"]);
    if (shape) return shape;
    const ref = value as Fields;
    return (
        within("path", textProblem(ref.path)) ??
        within("start", boundaryProblem(ref.start)) ??
        within("end", boundaryProblem(ref.end))
    );
}

function rangeProblem(value: unknown): LockProblem | undefined {
    const shape = shapeProblem(value, ["start", "end"]);
    if (shape) return shape;
    const range = value as Fields;
    return within("start", positionProblem(range.start)) ?? within("end", positionProblem(range.end));
}

const ENTRY_KEYS = ["ref", "range", "sha256", "length", "prefix", "suffix", "documentSha256"] as const;
const ENTRY_OPTIONAL = ["text", "head", "tail"] as const;

/** One entry of the lock, the path relative to it. */
export function lockEntryProblem(entry: unknown): LockProblem | undefined {
    const shape = shapeProblem(entry, ENTRY_KEYS, ENTRY_OPTIONAL);
    if (shape) return shape;
    const e = entry as Fields;
    const problem =
        within("ref", refProblem(e.ref)) ??
        within("range", rangeProblem(e.range)) ??
        within("sha256", shaProblem(e.sha256)) ??
        within("length", intProblem(e.length, 0)) ??
        within("text", fieldProblem(e.text, true)) ??
        within("head", fieldProblem(e.head, true)) ??
        within("tail", fieldProblem(e.tail, true)) ??
        within("prefix", fieldProblem(e.prefix)) ??
        within("suffix", fieldProblem(e.suffix)) ??
        within("documentSha256", shaProblem(e.documentSha256));
    if (problem) return problem;
    if (e.text === undefined && (e.head === undefined || e.tail === undefined))
        return at("an entry needs its text, or its head and tail");
    return undefined;
}

/** The entry schema, checked without copying or allocating. */
export function conformsToLockEntry(entry: unknown): boolean {
    return lockEntryProblem(entry) === undefined;
}

/** A record of non-empty keys, each value judged by `valueProblem`. */
function recordProblem(
    value: unknown,
    valueProblem: (item: unknown) => LockProblem | undefined,
): LockProblem | undefined {
    if (!isRecord(value)) return at("expected an object");
    for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (key === "") return at("a key is empty", key);
        const problem = within(key, valueProblem(value[key]));
        if (problem) return problem;
    }
    return undefined;
}

function basisProblem(value: unknown): LockProblem | undefined {
    const shape = shapeProblem(value, ["annotationFileSha256", "entriesSha256", "documents"]);
    if (shape) return shape;
    const basis = value as Fields;
    return (
        within("annotationFileSha256", shaProblem(basis.annotationFileSha256)) ??
        within("entriesSha256", shaProblem(basis.entriesSha256)) ??
        within(
            "documents",
            recordProblem(basis.documents, (hash) => (hash === null ? undefined : shaProblem(hash))),
        )
    );
}

/** The basis in a lock's header, as the schema has it. */
export function isLockBasis(value: unknown): value is LockBasis {
    return basisProblem(value) === undefined;
}

/** A whole lock: the first problem, or undefined when it follows the schema. */
export function lockProblem(value: unknown): LockProblem | undefined {
    const shape = shapeProblem(value, ["lockVersion", "annotationFile", "entries"], ["basis"]);
    if (shape) return shape;
    const lock = value as Fields;
    if (lock.lockVersion !== LOCK_VERSION) return at(`expected ${LOCK_VERSION}`, "lockVersion");
    return (
        within("annotationFile", textProblem(lock.annotationFile)) ??
        (lock.basis === undefined ? undefined : within("basis", basisProblem(lock.basis))) ??
        within("entries", recordProblem(lock.entries, lockEntryProblem))
    );
}
