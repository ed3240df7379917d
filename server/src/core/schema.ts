/**
 * Structural checks of plain JSON values (docs/contract.md section 3: `schema` and friends), each error
 * carrying the JSON pointer of the offending value. Values come from JSON.parse or jsonc-parser;
 * locating a pointer in the file text is the caller's business. A value that passes is returned as
 * itself, typed, not copied: a clean check of 100,000 annotations must not allocate them twice.
 */
import { pointerWithReading } from "../../../shared/numbering";
import { normalizeLineEndings } from "./lines";
import type { Annotation, Boundary, Ref, SchemaError, SourceDocument, SourceRef } from "./types";

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: Json): string {
    if (value === null) return "null";
    if (Array.isArray(value)) return "an array";
    if (typeof value === "string")
        return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    if (typeof value === "object") return "an object";
    return `${typeof value} ${String(value)}`;
}

const NO_ERRORS: readonly SchemaError[] = Object.freeze([]);

/**
 * Problems listed per file at most (docs/security.md, "Resource bounds"): `[{},{},…]` of 2 MB holds
 * 1.3 million schema errors; past this many they are counted, not built.
 */
export const MAX_LISTED_PROBLEMS = 1000;

export class SchemaChecker {
    /** The errors listed: the first `limit`. */
    readonly errors: SchemaError[] = [];
    /** Every error found, listed or not: what decides whether a value passed. */
    private found = 0;

    constructor(private readonly limit = MAX_LISTED_PROBLEMS) {}

    /** How many errors were found in all (`errors` lists at most `limit` of them). */
    get errorCount(): number {
        return this.found;
    }

    private fail(pointer: string, message: string, code: SchemaError["code"] = "schema"): undefined {
        this.found++;
        if (this.errors.length < this.limit) this.errors.push({ code, pointer, message });
        return undefined;
    }

    /** The errors listed since `listedMark` (an earlier `errors.length`). */
    private listedSince(listedMark: number): readonly SchemaError[] {
        return this.errors.length > listedMark ? this.errors.slice(listedMark) : NO_ERRORS;
    }

    /** owner[key], recording a missing field. `base` is the owner's pointer: strings are built only on failure. */
    private field(owner: Record<string, Json>, key: string, base: string, what: string): Json {
        if (!(key in owner)) this.fail(`${base}/${key}`, `missing ${key}: ${what}`);
        return owner[key];
    }

    /** The boundary `name` ("start" or "end") of the ref at `refPointer`. */
    boundary(value: Json, refPointer: string, name: "start" | "end"): Boundary | undefined {
        if (!isObject(value))
            return this.fail(
                `${refPointer}/${name}`,
                `${name} must be an object { line, str }, not ${describe(value)}`,
            );
        let ok = true;
        if (!("line" in value)) this.fail(`${refPointer}/${name}/line`, "missing line: a 1-based line number");
        const line = value.line;
        if ("line" in value && !(typeof line === "number" && Number.isInteger(line) && line >= 1)) {
            this.fail(
                `${refPointer}/${name}/line`,
                `${name}.line must be an integer >= 1 (lines count from 1), not ${describe(line)}`,
            );
            ok = false;
        }
        if (!("str" in value)) this.fail(`${refPointer}/${name}/str`, "missing str: the boundary string");
        const str = value.str;
        if ("str" in value && !(typeof str === "string" && str.length > 0)) {
            this.fail(`${refPointer}/${name}/str`, `${name}.str must be a non-empty string, not ${describe(str)}`);
            ok = false;
        }
        if (!("line" in value) || !("str" in value) || !ok) return undefined;
        return value as unknown as Boundary; // checked: no copy on the path every valid ref takes
    }

    ref(value: Json, pointer: string, what: string): Ref | undefined {
        if (!isObject(value))
            return this.fail(pointer, `${what} must be a ref object { path, start, end }, not ${describe(value)}`);
        const before = this.found;
        const path = this.field(value, "path", pointer, "the path of a document");
        if ("path" in value && !(typeof path === "string" && path.length > 0)) {
            this.fail(`${pointer}/path`, `path must be a non-empty string, not ${describe(path)}`);
        }
        const start =
            "start" in value
                ? this.boundary(value.start, pointer, "start")
                : this.fail(`${pointer}/start`, "missing start: { line, str }");
        const end =
            "end" in value
                ? this.boundary(value.end, pointer, "end")
                : this.fail(`${pointer}/end`, "missing end: { line, str }");
        if (this.found > before || !start || !end) return undefined;
        return value as unknown as Ref;
    }

    sourceRef(value: Json, pointer: string): SourceRef | undefined {
        const ref = this.ref(value, pointer, "a source");
        if (!isObject(value)) return undefined;
        const before = this.found;
        const polarity = this.field(value, "polarity", pointer, '"supports" or "refutes"');
        if ("polarity" in value && polarity !== "supports" && polarity !== "refutes") {
            this.fail(`${pointer}/polarity`, `polarity must be "supports" or "refutes", not ${describe(polarity)}`);
        }
        const confidence = this.field(value, "confidence", pointer, "a number in [0, 1]");
        if (
            "confidence" in value &&
            !(typeof confidence === "number" && Number.isFinite(confidence) && confidence >= 0 && confidence <= 1)
        ) {
            this.fail(`${pointer}/confidence`, `confidence must be a number in [0, 1], not ${describe(confidence)}`);
        }
        if (!ref || this.found > before) return undefined;
        return value as unknown as SourceRef;
    }

    /** The parts of an annotation that could be read, for reporting; `annotation` only when all is well. */
    annotation(value: Json, pointer: string): ReadAnnotation {
        if (!isObject(value)) {
            this.fail(pointer, `an annotation must be an object { claim, sources }, not ${describe(value)}`);
            return { readable: false, sources: [] };
        }
        const before = this.found;
        const listedBefore = this.errors.length;
        const claimPath = isObject(value.claim) && typeof value.claim.path === "string" ? value.claim.path : undefined;
        const claim =
            "claim" in value
                ? this.ref(value.claim, `${pointer}/claim`, "claim")
                : this.fail(`${pointer}/claim`, "missing claim: the ref of the annotated span");
        const sources: ReadSource[] = [];
        if (!("sources" in value)) {
            this.fail(`${pointer}/sources`, "missing sources: a non-empty list of source refs");
        } else if (!Array.isArray(value.sources)) {
            this.fail(`${pointer}/sources`, `sources must be a non-empty array, not ${describe(value.sources)}`);
        } else if (value.sources.length === 0) {
            this.fail(
                `${pointer}/sources`,
                "sources must not be empty: to mark a region unsourced, do not annotate it",
            );
        } else {
            value.sources.forEach((source, index) => {
                const sourcePointer = `${pointer}/sources/${index}`;
                const listedMark = this.errors.length;
                const ref = this.sourceRef(source, sourcePointer);
                sources.push({
                    ref,
                    raw: isObject(source) ? source : {},
                    pointer: sourcePointer,
                    errors: this.listedSince(listedMark),
                });
            });
        }
        const result: ReadAnnotation = {
            readable: true,
            claim,
            claimPath,
            claimErrors: claimErrorsOf(this.listedSince(listedBefore), pointer),
            sources,
        };
        if (this.found === before && claim) {
            result.annotation = { claim, sources: sources.map((s) => s.ref as SourceRef) };
        }
        return result;
    }

    document(value: Json, pointer: string): SourceDocument | undefined {
        if (!isObject(value))
            return this.fail(pointer, `a document must be an object { path, content }, not ${describe(value)}`);
        const before = this.found;
        const path = this.field(value, "path", pointer, "a unique path");
        if ("path" in value && !(typeof path === "string" && path.length > 0)) {
            this.fail(`${pointer}/path`, `path must be a non-empty string, not ${describe(path)}`);
        }
        const content = this.field(value, "content", pointer, "the document text");
        if ("content" in value && typeof content !== "string") {
            this.fail(`${pointer}/content`, `content must be a string, not ${describe(content)}`);
        }
        if (this.found > before) return undefined;
        if ((content as string).includes("\r")) {
            // Reported, then resolved against the normalised text so the refs still get checked.
            this.fail(
                `${pointer}/content`,
                `document ${JSON.stringify(path)} contains \\r: a session's content must use LF line endings (sourcecheck session normalises them)`,
                "cr-in-content",
            );
            return { path: path as string, content: normalizeLineEndings(content as string) };
        }
        return { path: path as string, content: content as string };
    }

    duplicatePath(pointer: string, path: string, firstPointer: string): void {
        this.fail(
            pointer,
            `two documents share the path ${JSON.stringify(path)} (first at ${pointerWithReading(firstPointer)})`,
            "duplicate-path",
        );
    }

    fileShape(pointer: string, message: string): void {
        this.fail(pointer, message);
    }
}

function claimErrorsOf(listed: readonly SchemaError[], pointer: string): readonly SchemaError[] {
    return listed.length === 0 ? NO_ERRORS : listed.filter((e) => e.pointer.startsWith(`${pointer}/claim`));
}

export interface ReadSource {
    /** The source when all of it passes. */
    ref: SourceRef | undefined;
    raw: Record<string, Json>;
    pointer: string;
    errors: readonly SchemaError[];
}

export interface ReadAnnotation {
    readable: boolean;
    claim?: Ref;
    claimPath?: string;
    claimErrors?: readonly SchemaError[];
    sources: ReadSource[];
    annotation?: Annotation;
}
