/**
 * What the language features need from the workspace (docs/architecture.md), as
 * vscode-markdown-languageservice's `IWorkspace`: a few questions about documents and citations, no
 * file system. The server answers them with `WorkspaceIndex` (open buffers first, then the disk
 * under each document root); unit tests answer them from memory and record what was asked. A feature
 * that needs more than `FeatureWorkspace` says exactly what, in one of the interfaces below: no feature
 * names the concrete index.
 */
import type { WorkspaceEdit } from "vscode-languageserver-protocol";
import type { AgentToolParams, AgentToolResult } from "../../../shared/agentToolProtocol";
import type { SessionDocument } from "../core/session";
import type { SeverityPolicy } from "../core/severity";
import type { Text } from "../core/textChunks";
import type { AnnotationFile, Citation } from "../workspace/annotationFile";
import type { DocumentSource } from "../workspace/documentSource";
import type { HostLocks } from "../workspace/lockPaths";
import type { ConfigLoad } from "../workspace/projectConfig";
import type { Settings } from "../workspace/settings";
import type { UriSpace } from "../workspace/uris";
import type { PendingReads } from "../workspace/workspaceFiles";

export type { Citation } from "../workspace/annotationFile";

export type Citable = { ok: true; path: string; document: SessionDocument } | { ok: false; message: string };

export interface FeatureWorkspace {
    /** How URIs name paths (the host's: `file:` on Node, the workspace's scheme in the browser). */
    readonly uris: UriSpace;
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
    /**
     * The level of each code for this file: `sourcecheck.severity` over its sourcecheck.config.json's
     * (docs/codes.md, "Severity per code"); undefined when neither sets one.
     */
    severityOf?(file: AnnotationFile): SeverityPolicy | undefined;
}

/** Quick fixes (features/codeActions.ts): the questions above, and whether the editor keeps locks. */
export interface FixingWorkspace extends FeatureWorkspace {
    readonly settings: Pick<Settings, "boundaryStyle" | "lockUpdate">;
}

/** Refs following edits and renames (features/followEdits.ts): who cites what, and the settings for it. */
export interface FollowingWorkspace extends FeatureWorkspace {
    readonly settings: Pick<Settings, "boundaryStyle" | "updateRefsOnEdit">;
    /** The annotation files citing this absolute path. */
    dependentsOf(absolutePath: string): AnnotationFile[];
    /** Cited documents at or below this absolute path. */
    citedUnder(absolutePath: string): string[];
}

/** The analysis (features/analysis.ts): checking annotation files as they change, and forgetting them. */
export interface CheckingWorkspace {
    /** How URIs name paths (the host's: `file:` on Node, the workspace's scheme in the browser). */
    readonly uris: UriSpace;
    /** Reads still on their way (the browser's files come from the client: docs/web.md). */
    readonly reads: PendingReads;
    isAnnotationFile(uri: string, languageId?: string): boolean;
    get(uri: string): AnnotationFile | undefined;
    analyze(uri: string, version: number, text: Text, keepValue?: boolean): AnnotationFile;
    analyzeFromDisk(uri: string, version?: number): AnnotationFile | undefined;
    remove(uri: string): void;
    isHalfRead(uri: string): boolean;
    halfReadFiles(): string[];
    /** A cited document changed: the annotation files whose refs into it were resolved again. */
    documentChanged(absolutePath: string): AnnotationFile[];
    uriOf(file: AnnotationFile, refPath: string): string | undefined;
}

/** Lock Refs (features/lockRefs.ts): whether the editor keeps locks, and the folder writes stay in. */
export interface LockingWorkspace {
    /** How locks are read and written: the host's (the disk's on Node; in the browser none is written). */
    readonly locks: HostLocks;
    /** How URIs name paths (the host's: `file:` on Node, the workspace's scheme in the browser). */
    readonly uris: UriSpace;
    readonly settings: Pick<Settings, "lockUpdate">;
    folderOf(absolutePath: string): string | undefined;
}

/** The configuration files read so far, for their diagnostics (features/configDiagnostics.ts). */
export interface ConfiguredWorkspace {
    /** How URIs name paths (the host's: `file:` on Node, the workspace's scheme in the browser). */
    readonly uris: UriSpace;
    readonly configs: { loaded(): ConfigLoad[] };
}

/** The agent tools in the editor (node/agentTools.ts): folders, documents under a root, the files of the scan. */
export interface ToolWorkspace {
    /** How URIs name paths (the host's: `file:` on Node, the workspace's scheme in the browser). */
    readonly uris: UriSpace;
    readonly folders: readonly string[];
    readonly settings: Pick<Settings, "documentRoot" | "maxDocumentSize" | "severity">;
    readonly source: Pick<DocumentSource, "get" | "lookupFor">;
    filesUnder(root: string): string[];
}

/** What the agent tools in the editor need of it beyond the workspace index (node/agentTools.ts). */
export interface EditorAccess {
    /** The open buffer of a file (by absolute path), with the URI the client knows it by. */
    buffer(absolutePath: string): { uri: string; text: string } | undefined;
    /** Ask the client to apply an edit; false when it refused. */
    applyEdit(edit: WorkspaceEdit, label: string): Promise<boolean>;
    /** Whether the request gave up (the client cancelled it): the tools stop between annotations, write nothing. */
    cancelled?: () => boolean;
}

/** The agent tools' handler (node/agentTools.ts `agentTool`), given by the Node server only (docs/web.md). */
export type AgentToolHandler = (
    workspace: ToolWorkspace,
    params: AgentToolParams,
    editor: EditorAccess,
) => Promise<AgentToolResult>;
