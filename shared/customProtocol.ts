/**
 * The custom protocol between the language server and the VS Code client (docs/custom-protocol.md):
 * method names and message shapes, types only, so both sides compile against
 * one definition and cannot drift. Ranges are LSP ranges: 0-based lines, UTF-16 columns, end exclusive.
 */
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import type { RefRole } from "./numbering";
import type { Polarity, Ref } from "./refModel";

export type { Boundary, Ref } from "./refModel";

export const CITED_SPANS = "sourcecheck/citedSpans";
export const CITED_SPANS_CHANGED = "sourcecheck/citedSpansChanged";
export const REF_FOR_SELECTION = "sourcecheck/refForSelection";
export const FILE_SUMMARY = "sourcecheck/fileSummary";
export const COVERAGE = "sourcecheck/coverage";
export const LINE_INDEX = "sourcecheck/lineIndex";
export const REFS_CAN_FOLLOW = "sourcecheck/refsCanFollow";
export const FOLLOW_EDITS = "sourcecheck/followEdits";
export const DISMISS_FOLLOW_EDITS = "sourcecheck/dismissFollowEdits";
export const PATHS_FOR_RENAME = "sourcecheck/pathsForRename";

export interface LspPosition {
    line: number;
    character: number;
}

export interface LspRange {
    start: LspPosition;
    end: LspPosition;
}

export type SpanKind = "claim" | "supports" | "refutes";

/** The verdict of an annotation (docs/verdicts.md). */
export type Verdict = "supported" | "refuted" | "contested" | "broken";
export const SPAN_KINDS: readonly SpanKind[] = ["claim", "supports", "refutes"];

/**
 * Which ref of an annotation: its claim, or a source numbered from 1 (docs/contract.md, "Numbers":
 * `annotation` and `source` count from 1; 0-based positions only in `index` and JSON Pointers).
 */
export type { RefRole } from "./numbering";

export type Citation = RefRole & {
    /** The annotation file holding the citing annotation. */
    annotationUri: string;
    /** The citing annotation, numbered from 1. */
    annotation: number;
    polarity?: Polarity;
    confidence?: number;
    /** The resolved claim of that annotation, when it resolves. */
    claimText?: string;
    /** The verdict of the citing annotation: claims are drawn by it. */
    verdict: Verdict;
    /**
     * The citing annotation is a claim still waiting for its sources (`"sources": []`, nothing else
     * wrong): its verdict stays `broken` for the CLI, the editor draws it as waiting, not broken.
     */
    awaitingSources?: true;
    /**
     * On a claim: each source of its annotation (numbered from 1) with its polarity, confidence and
     * verdict (`supported` or `refuted` by its polarity when it resolves, else `broken`), for the hover.
     */
    sources?: CitationSource[];
    /** Where the citing ref sits in the annotation file. */
    refRange: LspRange;
    /**
     * Why the citing annotation is broken, or which of its refs drifted from their locked text: one
     * entry per ref (its first error), so a hover on the span can say which ref and why (docs/verdicts.md).
     */
    problems?: RefProblem[];
};

/** One source of a claim's annotation, as the claim's hover lists it. */
export interface CitationSource {
    source: number;
    polarity?: Polarity;
    confidence?: number;
    verdict: Verdict;
}

/** A ref of an annotation that fails, or whose cited text changed since it was locked. */
export type RefProblem = RefRole & {
    /** The ref's `path`, as written. */
    path: string;
    /** For example `boundary-not-found`, or `text-changed` for drift. */
    code: string;
    message: string;
    /** Where the ref sits in the annotation file: its quick fixes are asked for there. */
    refRange: LspRange;
};

export interface CitedSpan {
    range: LspRange;
    kind: SpanKind;
    citations: Citation[];
}

export interface CitedSpansParams {
    uri: string;
}

/**
 * A ref into this document that does not resolve, placed on the line it names (the line of the
 * boundary that failed, else its start line) when that line exists.
 */
export type BrokenRef = RefRole & {
    /** The whole named line, 0-based like every LSP range. */
    range: LspRange;
    /** 1-based, as the ref writes it. */
    line: number;
    annotationUri: string;
    /** The annotation, numbered from 1. */
    annotation: number;
    /** The first error, for example `boundary-not-found`. */
    code: string;
    message: string;
    /** Where the broken ref sits in the annotation file. */
    refRange: LspRange;
};

export interface CitedSpansResult {
    uri: string;
    spans: CitedSpan[];
    /** Broken refs into this document, sorted by line. */
    brokenRefs: BrokenRef[];
}

export interface CitedSpansChangedParams {
    uris: string[];
}

export interface RefForSelectionParams {
    uri: string;
    range: LspRange;
}

export type RefForSelectionResult =
    | {
          ok: true;
          ref: Ref;
          /** True when a boundary had to cut inside a word: no word-aligned string was unique (docs/boundaries.md). */
          characterLevel: boolean;
          /** Said to the user beside the result when `characterLevel` is true. */
          note?: string;
          /**
           * Set when the selection started or ended inside a word and was widened to the word's
           * edges (`sourcecheck.boundaryStyle: words`): the range the ref cites.
           */
          widenedTo?: LspRange;
      }
    | { ok: false; message: string };

export interface FileSummary {
    validCount: number;
    invalidCount: number;
    schemaErrorCount: number;
    /** With a valid lock beside the file (docs/lock.md): resolving refs on their locked text, on other text, without an entry. */
    lock?: { locked: number; changed: number; unlocked: number };
}

export interface CoverageResult {
    coveredChars: number;
    totalChars: number;
    ratio: number;
    /** The sentences no claim of a valid annotation overlaps (docs/view.md). */
    uncovered?: LspRange[];
}

export interface LineIndexResult {
    text: string;
}

/** Refs into an edited document (`uri`) moved with the edit and can be updated (docs/follow-edits.md). */
export interface RefsCanFollowParams {
    uri: string;
    refCount: number;
    fileCount: number;
    /**
     * Refs whose cited text the edit changed (a word inside the span or on a boundary): drift, not a
     * move, so never offered for update (docs/follow-edits.md).
     */
    changed?: ChangedCitation[];
}

/** A ref whose cited text an edit changed: its annotation file, its annotation and source (or the claim), from 1. */
export type ChangedCitation = RefRole & {
    fileUri: string;
    annotation: number;
};

/** Ask for (followEdits) or drop (dismissFollowEdits) the pending updates of refs into `uri`. */
export interface FollowEditsParams {
    uri: string;
}

/** One workspace edit updating refs in annotation files, open or closed. */
export interface RefUpdate {
    edit: WorkspaceEdit;
    refCount: number;
    fileCount: number;
}

/**
 * An authoring write (cite the selection as a claim, add it as a source): the server computes the
 * edit of the annotation file (its one writer of annotation JSON) and the client applies it as one
 * WorkspaceEdit, so one undo takes it back. The client sends the text it holds and its version: the
 * edit is computed on that text and refused by the editor if the document changed meanwhile.
 */
export const ANNOTATION_EDIT = "sourcecheck/annotationEdit";

export type AnnotationChange =
    | { kind: "appendClaim"; claim: Ref }
    | {
          kind: "appendSource";
          /** The annotation the source goes to, counted from 1 (docs/contract.md, "Numbers"). */
          annotation: number;
          source: Ref & { polarity: Polarity; confidence: number };
      };

export interface AnnotationEditParams {
    uri: string;
    /** The file's text as the editor has it; "" when the file does not exist yet (the edit creates it). */
    text: string;
    /** The open document's version; null for a file the edit creates. */
    version: number | null;
    /** The editor's indentation, used when the text shows none of its own. */
    formatting: { tabSize: number; insertSpaces: boolean };
    change: AnnotationChange;
}

export type AnnotationEditResult =
    /** `annotation` and `source` (when a source was added): the places written, counted from 1. */
    | { ok: true; edit: WorkspaceEdit; annotation: number; source?: number }
    /** `not-in-session`: the file embeds its own session, which has no document `path`. */
    | { ok: false; message: string; code?: "not-in-session"; path?: string };

/** Files or folders about to be renamed or moved: the `path`s citing them follow. */
export interface PathsForRenameParams {
    files: { oldUri: string; newUri: string }[];
}

/**
 * Every document some annotation file cites (valid refs or not), so the client registers the
 * cited-span features (hovers, references, decorations) for those documents only. The set is asked
 * again after `sourcecheck/citedSpansChanged`.
 */
export const CITED_DOCUMENTS = "sourcecheck/citedDocuments";

export interface CitedDocumentsResult {
    uris: string[];
}

/**
 * The annotation files the server checks (found by its workspace scan, or open), once the scan and
 * the first check are over; for the SourceCheck view (docs/view.md).
 */
export const ANNOTATION_FILES = "sourcecheck/annotationFiles";

export interface AnnotationFilesResult {
    uris: string[];
}

/** The annotations of an annotation file, for the SourceCheck view (docs/view.md). */
export const FILE_ANNOTATIONS = "sourcecheck/fileAnnotations";

export type AnnotationRefSummary = RefRole & {
    valid: boolean;
    /** The cited document and span, when the ref resolves in a workspace file. */
    uri?: string;
    range?: LspRange;
    /** The resolved text (shortened), or why the ref does not resolve. */
    text?: string;
    error?: string;
    polarity?: Polarity;
    confidence?: number;
    /** Where the ref sits in the annotation file. */
    refRange: LspRange;
};

export interface AnnotationSummary {
    /** The annotation's position in the file's array, from 0 (as in its JSON Pointer). */
    index: number;
    verdict: Verdict;
    claim?: AnnotationRefSummary;
    sources: AnnotationRefSummary[];
}

export interface FileAnnotationsResult {
    uri: string;
    annotations: AnnotationSummary[];
}

/**
 * Lock an annotation file's refs (docs/lock.md, "In the editor"); the server computes and writes the
 * lock beside the file (the client never resolves refs):
 * - `lock` ("SourceCheck: Lock Refs"): as `sourcecheck lock`, changed texts accepted, the lock created when missing;
 * - `update` (saving): only when a lock exists (or `create`), entries of valid refs follow them, changed texts stay as locked;
 * - `accept` ("Accept the new text"): as `update`, and the ref at `pointer` has its changed text locked.
 */
export const LOCK_REFS = "sourcecheck/lockRefs";
/** The client command behind the quick fix "Accept the new text (update the lock)": `{ uri, pointer }`. */
export const ACCEPT_CHANGED_TEXT_COMMAND = "sourcecheck.acceptChangedText";

export interface LockRefsParams {
    uri: string;
    mode: "lock" | "update" | "accept";
    /** `accept`: the JSON pointer of the ref whose new text is accepted. */
    pointer?: string;
    /** `update`: create the lock when the file has none (the user chose "Always"). */
    create?: boolean;
    /**
     * `lock`: accept every changed text (the user answered yes to "Accept N changed texts?"). Without
     * it a ref whose cited text changed keeps its locked text and is counted in `changed`.
     */
    accept?: boolean;
}

export interface LockRefsResult {
    ok: boolean;
    /** Why nothing was written, for people (a bad lock, a schema error, the setting `never`). */
    message?: string;
    /** The lock file was written (false also when nothing would change in it). */
    written: boolean;
    /** A lock existed beside the file before this request. */
    hadLock: boolean;
    /** URI of the lock file. */
    lockUri?: string;
    /** Refs locked to the text they cite now. */
    locked: number;
    /** Refs whose changed text stays as locked (not accepted). */
    changed: number;
    /** Refs whose changed text was accepted. */
    accepted: number;
    /** Refs that do not resolve (their last entry kept when they had one). */
    unresolved: number;
}

/**
 * "SourceCheck: Fix All Certain Repairs in Workspace" (docs/editor.md): every certain repair of every
 * annotation file, as `sourcecheck repair --write` makes them (the repair operation, run by the
 * `repair` agent tool), returned as one edit the client applies, so one undo takes it all back. An
 * open file's edit carries its version: the editor refuses the edit if it changed meanwhile.
 */
export const REPAIR_WORKSPACE = "sourcecheck/repairWorkspace";

export type RepairWorkspaceResult =
    | {
          ok: true;
          edit: WorkspaceEdit;
          /** Certain repairs in the edit. */
          refCount: number;
          /** Annotation files the edit changes. */
          fileCount: number;
          /** Annotation files looked at. */
          checkedCount: number;
          /** Files the repair could not run on (outside the root, unreadable, an invalid lock), with why. */
          skipped: { uri: string; message: string }[];
      }
    | { ok: false; message: string };
