/**
 * What the language features need from the workspace (docs/architecture.md), as
 * vscode-markdown-languageservice's `IWorkspace`: a few questions about documents and citations, no
 * file system. The server answers them with `WorkspaceIndex` (open buffers first, then the disk
 * under each document root); unit tests answer them from memory and record what was asked.
 */
import type { SessionDocument } from "../core/session";
import type { AnnotationFile, Citation } from "../workspace/annotationFile";
import type { Settings } from "../workspace/settings";

export type { Citation } from "../workspace/annotationFile";

export type Citable = { ok: true; path: string; document: SessionDocument } | { ok: false; message: string };

export interface FeatureWorkspace {
    /** The settings features follow (boundary style for written and proposed strings). */
    readonly settings: Pick<Settings, "boundaryStyle">;
    /** Every ref of every known annotation file that cites this absolute path, valid or not. */
    citationsOf(absolutePath: string): Citation[];
    /** A document as a workspace-mode ref would cite it (path relative to its root), or why not. */
    citable(uri: string): Citable;
    /** The text of any document as the resolver sees it (open buffer first, LF-normalised). */
    documentText(uri: string): string | undefined;
    /** Files under a root, relative to it (from the last scan: no disk access). */
    filesUnder(root: string): string[];
    /** The absolute path a workspace-mode ref of this file names, when it is under the root. */
    absoluteOf(file: AnnotationFile, refPath: string): string | undefined;
    uriOf(file: AnnotationFile, refPath: string): string | undefined;
}
