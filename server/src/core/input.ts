/**
 * The three input shapes of docs/contract.md section 4, told apart on a plain JSON value:
 *   1. { session: { documents }, annotations }   2. { documents, annotations }
 *   3. { annotations } or [ ...annotations ]      (workspace mode: documents are files)
 * An object may also hold `unsourced`: the claim refs searched with no source found.
 */
import type { SchemaChecker } from "./schema";
import type { SourceDocument } from "./types";

export type InputShape = "batch" | "session" | "workspace";

export interface PointedDocument extends SourceDocument {
    pointer: string;
}

export interface InputParts {
    shape: InputShape;
    /** Embedded documents that passed the schema (first of duplicates kept); undefined in workspace mode. */
    documents?: PointedDocument[];
    /** The annotation values, unchecked, with the pointer of the array holding them. */
    annotations: unknown[];
    annotationsPointer: string;
    /**
     * The claim refs of the top-level `unsourced` list, unchecked: claims the author searched and
     * found no source for (docs/contract.md, "Unsourced claims"); absent in a file without the list.
     */
    unsourced?: unknown[];
}

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function readInput(value: unknown, checker: SchemaChecker): InputParts {
    if (Array.isArray(value)) return { shape: "workspace", annotations: value, annotationsPointer: "" };
    if (!isObject(value)) {
        checker.fileShape(
            "",
            "expected an object with annotations (and optionally a session), or an array of annotations",
        );
        return { shape: "workspace", annotations: [], annotationsPointer: "/annotations" };
    }
    let shape: InputShape = "workspace";
    let documents: PointedDocument[] | undefined;
    if ("session" in value) {
        shape = "batch";
        const session = value.session;
        if (!isObject(session)) {
            checker.fileShape("/session", "session must be an object { documents: [...] }");
            documents = [];
        } else {
            documents = readDocuments(session.documents, "/session/documents", "documents" in session, checker);
        }
    } else if ("documents" in value) {
        shape = "session";
        documents = readDocuments(value.documents, "/documents", true, checker);
    }
    let annotations: unknown[] = [];
    if (!("annotations" in value)) {
        checker.fileShape("/annotations", "missing annotations: a list of { claim, sources }");
    } else if (!Array.isArray(value.annotations)) {
        checker.fileShape("/annotations", "annotations must be an array of { claim, sources }");
    } else {
        annotations = value.annotations;
    }
    const parts: InputParts = { shape, documents, annotations, annotationsPointer: "/annotations" };
    if ("unsourced" in value) {
        if (Array.isArray(value.unsourced)) parts.unsourced = value.unsourced;
        else checker.fileShape("/unsourced", "unsourced must be an array of claim refs { path, start, end }");
    }
    return parts;
}

function readDocuments(value: unknown, pointer: string, present: boolean, checker: SchemaChecker): PointedDocument[] {
    if (!present) {
        checker.fileShape(pointer, "missing documents: a list of { path, content }");
        return [];
    }
    if (!Array.isArray(value)) {
        checker.fileShape(pointer, "documents must be an array of { path, content }");
        return [];
    }
    const documents: PointedDocument[] = [];
    const firstPointer = new Map<string, string>();
    value.forEach((item, index) => {
        const itemPointer = `${pointer}/${index}`;
        const document = checker.document(item, itemPointer);
        const path = isObject(item) && typeof item.path === "string" ? item.path : undefined;
        if (path !== undefined) {
            const first = firstPointer.get(path);
            if (first !== undefined) {
                checker.duplicatePath(`${itemPointer}/path`, path, first);
                return;
            }
            firstPointer.set(path, `${itemPointer}/path`);
        }
        if (document) documents.push({ ...document, pointer: itemPointer });
    });
    return documents;
}
