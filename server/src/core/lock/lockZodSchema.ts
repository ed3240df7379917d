/**
 * The lock's schema as zod (docs/lock.md, "Reading a lock"; published as
 * schemas/sourcecheck-lock.schema.json). Nothing at run time imports it: it is the oracle of the hand
 * check's test (./lockProblem.ts, test/unit/lockSchemaCheck.test.ts), since zod is large and half of
 * the web worker's size budget.
 */
import { z } from "zod";
import { LOCK_VERSION, MAX_LOCK_FIELD } from "./types";

const boundary = z.strictObject({ line: z.number().int().min(1), str: z.string().min(1) });
const position = z.strictObject({ line: z.number().int().min(1), column: z.number().int().min(0) });
const sha = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 as 64 lowercase hex digits");
/** A text field of an entry: at most MAX_LOCK_FIELD code units (`lock` writes fewer). */
const capped = () =>
    z
        .string()
        .max(
            MAX_LOCK_FIELD,
            `at most ${MAX_LOCK_FIELD} characters (sourcecheck lock writes fewer: this entry was edited by hand)`,
        );
const entry = z
    .strictObject({
        ref: z.strictObject({ path: z.string().min(1), start: boundary, end: boundary }),
        range: z.strictObject({ start: position, end: position }),
        sha256: sha,
        length: z.number().int().min(0),
        text: capped().optional(),
        head: capped().optional(),
        tail: capped().optional(),
        prefix: capped(),
        suffix: capped(),
        documentSha256: sha,
    })
    .refine((e) => e.text !== undefined || (e.head !== undefined && e.tail !== undefined), {
        message: "an entry needs its text, or its head and tail",
    });
const basis = z.strictObject({
    annotationFileSha256: sha,
    entriesSha256: sha,
    documents: z.record(z.string().min(1), sha.nullable()),
});
const lock = z.strictObject({
    lockVersion: z.literal(LOCK_VERSION),
    annotationFile: z.string().min(1),
    basis: basis.optional(),
    entries: z.record(z.string().min(1), entry),
});

export const LOCK_ZOD_SCHEMAS = { entry, lock };
