/**
 * The `sourcecheck.*` settings the server reads (from workspace/configuration, didChangeConfiguration
 * or initializationOptions), validated once here so every other module can trust them.
 */
import type { BoundaryStyle } from "../core/boundaries";
import { readSeverityPolicy, type SeverityPolicy } from "../core/severity";
import { DEFAULT_MAX_DOCUMENT_BYTES } from "./workspace";

export interface Settings {
    /** Extra globs recognising annotation files, beside `*.sourcecheck.json` and `*.annotations.json`. */
    annotationFiles: string[];
    /** Document root, relative to the workspace folder (or absolute); empty = the folder itself. */
    documentRoot: string;
    /** Size cap of a cited document, in bytes. */
    maxDocumentSize: number;
    inlayHintsEnabled: boolean;
    /** How written and proposed boundary strings are chosen (docs/boundaries.md). */
    boundaryStyle: BoundaryStyle;
    /** Refs into an edited document follow the edit: ask, always, or never (docs/follow-edits.md). */
    updateRefsOnEdit: UpdateMode;
    /** `sourcecheck.exclude`: globs the workspace scan skips, beside files.exclude, search.exclude, .gitignore. */
    exclude: string[];
    /** `sourcecheck.lock.update`: when the editor writes locks (docs/lock.md, "In the editor"). */
    lockUpdate: LockUpdateMode;
    /** `sourcecheck.severity`: the level of each code, over sourcecheck.config.json's (docs/codes.md). */
    severity: SeverityPolicy;
}

/** onSave: saving updates an existing lock; manual: only the command and quick fixes write; never: the editor writes none. */
export type LockUpdateMode = "onSave" | "manual" | "never";
export const LOCK_UPDATE_MODES: readonly LockUpdateMode[] = ["onSave", "manual", "never"];

export type UpdateMode = "prompt" | "always" | "never";
const UPDATE_MODES: readonly UpdateMode[] = ["prompt", "always", "never"];

export const DEFAULT_SETTINGS: Settings = {
    annotationFiles: [],
    documentRoot: "",
    maxDocumentSize: DEFAULT_MAX_DOCUMENT_BYTES,
    inlayHintsEnabled: true,
    boundaryStyle: "words",
    updateRefsOnEdit: "prompt",
    exclude: [],
    lockUpdate: "onSave",
    severity: {},
};

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Read settings from `{ annotationFiles, documentRoot, maxDocumentSize, inlayHints: { enabled }, boundaryStyle }`
 * (the `sourcecheck` section) or the same under a `sourcecheck` key; anything malformed falls back
 * to the default rather than breaking the server.
 */
export function readSettings(raw: unknown): Settings {
    const section = isObject(raw) && isObject(raw.sourcecheck) ? raw.sourcecheck : raw;
    if (!isObject(section)) return { ...DEFAULT_SETTINGS };
    const globs = Array.isArray(section.annotationFiles)
        ? section.annotationFiles.filter((g): g is string => typeof g === "string" && g.length > 0)
        : [];
    const root = typeof section.documentRoot === "string" ? section.documentRoot.trim() : "";
    const size = section.maxDocumentSize;
    const inlay = isObject(section.inlayHints) ? section.inlayHints.enabled : section["inlayHints.enabled"];
    const lockUpdate = isObject(section.lock) ? section.lock.update : section["lock.update"];
    return {
        annotationFiles: globs,
        documentRoot: root,
        maxDocumentSize:
            typeof size === "number" && Number.isFinite(size) && size > 0 ? size : DEFAULT_SETTINGS.maxDocumentSize,
        inlayHintsEnabled: typeof inlay === "boolean" ? inlay : true,
        boundaryStyle: section.boundaryStyle === "shortest" ? "shortest" : "words",
        updateRefsOnEdit: UPDATE_MODES.find((m) => m === section.updateRefsOnEdit) ?? "prompt",
        exclude: Array.isArray(section.exclude)
            ? section.exclude.filter((g): g is string => typeof g === "string" && g.length > 0)
            : [],
        lockUpdate: LOCK_UPDATE_MODES.find((m) => m === lockUpdate) ?? "onSave",
        // Unknown codes and levels are left out (VS Code's settings editor flags them from package.json).
        severity: section.severity === undefined ? {} : readSeverityPolicy(section.severity).policy,
    };
}
