/**
 * Refs that follow edits, and paths that follow renames (docs/follow-edits.md).
 *
 * Edits: the changes to every open cited document are recorded as the server applies them (the
 * `update` of TextDocuments). After a short pause, the refs into that document that were valid
 * before are followed through the changes (core/followEdits.ts) and kept as pending updates; the
 * client is told how many, and asks for them as one WorkspaceEdit (or dismisses them). Pending
 * updates compose over several pauses: a ref is followed from its pending position. The work of a
 * pause is proportional to the refs into the edited document, found through the workspace index.
 *
 * Renames: the `path`s of refs citing a renamed file (or anything under a renamed folder) are
 * rewritten relative to each annotation file's document root.
 */
import * as nodePath from "node:path";
import type { TextDocumentEdit, TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { TextDocument, TextDocumentContentChangeEvent } from "vscode-languageserver-textdocument";
import type {
    ChangedCitation,
    PathsForRenameParams,
    RefsCanFollowParams,
    RefUpdate,
} from "../../../shared/customProtocol";
import { ordinal, refRoleOf } from "../../../shared/numbering";
import { sameRef } from "../../../shared/refModel";
import { refTokenEdits, refTokenPointers } from "../core/annotationEdits";
import type { BoundaryStyle } from "../core/boundaries";
import { differenceOf, type FollowOutcome, findPasted, followRef, type TextChange } from "../core/followEdits";
import { normalizeLineEndings } from "../core/lines";
import { resolveInDocument } from "../core/resolve";
import { SessionDocument } from "../core/session";
import type { Ref } from "../core/types";
import type { AnnotationFile, RefSite } from "../workspace/annotationFile";
import { updateDocument } from "../workspace/editedDocument";
import { isInside } from "../workspace/pathSafety";
import { Debounce } from "./debounce";
import type { FollowingWorkspace } from "./featureWorkspace";
import { rangeOfSpan } from "./positions";

/** Changes made to one document since the last pause. */
interface Window {
    document: TextDocument;
    before: string;
    changes: TextChange[];
}

/** A ref whose update waits for the client: as written in its file, and where it now points. */
interface Pending {
    fileUri: string;
    annotation: number;
    role: "claim" | number;
    pointer: string;
    before: Ref;
    after: Ref;
}

export interface FollowerHost {
    /** The current analysis of an annotation file (open buffer, else disk). */
    current(uri: string): AnnotationFile | undefined;
    /** Finish pending re-checks, so refs are read as their files now say. */
    settle(): void;
    /** The version of an open document; undefined when closed. */
    openVersion(uri: string): number | undefined;
    notify(params: RefsCanFollowParams): void;
}

function boundaryStyle(workspace: FollowingWorkspace): BoundaryStyle {
    return workspace.settings.boundaryStyle;
}

export class EditFollower {
    private readonly windows = new Map<string, Window>();
    /** Cited document URI -> pending updates by "file uri#pointer". */
    private readonly pending = new Map<string, Map<string, Pending>>();
    /** The content each document had at its last pause, reused as the next pause's "before". */
    private readonly baselines = new Map<string, SessionDocument>();
    /**
     * Cited document URI -> refs that were broken when its updates began to pend: an edit that
     * happens to make one resolve (then the next moves it) must not turn it into an update.
     */
    private readonly brokenAtStart = new Map<string, Map<string, Ref>>();
    /**
     * Cited document URI -> refs whose text an edit removed (a cut), in case a later edit pastes it
     * back. Kept until the document closes: such a ref stays broken as written meanwhile. Looked at
     * only while the ref, as written, does not resolve; one that resolves again drops its entry.
     */
    private readonly cut = new Map<string, Map<string, { before: Ref; text: string }>>();
    /**
     * Cited document URI -> refs whose cited text an edit changed, said once (typing on inside a
     * span is not said again at every pause) until the ref moves whole or the document closes.
     */
    private readonly drifted = new Map<string, Set<string>>();
    private readonly debounce: Debounce;

    constructor(
        private readonly workspace: FollowingWorkspace,
        private readonly host: FollowerHost,
        delayMs = 250,
    ) {
        this.debounce = new Debounce(delayMs, () => {
            try {
                this.flush();
            } catch {
                // A failed pause leaves refs as they are; the next edit tries again.
            }
        });
    }

    private get enabled(): boolean {
        return this.workspace.settings.updateRefsOnEdit !== "never";
    }

    /**
     * TextDocuments' update: apply the changes, recording them with their offsets when the document
     * is cited (the only documents whose edits matter here; others cost nothing extra).
     */
    update(document: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
        const path = this.workspace.uris.uriToPath(document.uri);
        let window = this.windows.get(document.uri);
        if (!window && (!this.enabled || path === undefined || this.workspace.dependentsOf(path).length === 0)) {
            return updateDocument(document, changes, version);
        }
        if (!window) {
            window = { document, before: document.getText(), changes: [] };
            this.windows.set(document.uri, window);
        }
        for (const change of changes) {
            const start = "range" in change ? document.offsetAt(change.range.start) : 0;
            const end = "range" in change ? document.offsetAt(change.range.end) : document.getText().length;
            updateDocument(document, [change], version);
            window.changes.push({ start, end, text: change.text });
        }
        this.debounce.schedule();
        return document;
    }

    /** A cited document closed: its unsaved edits are gone, and so are the updates they called for. */
    closed(uri: string): void {
        this.windows.delete(uri);
        this.baselines.delete(uri);
        this.brokenAtStart.delete(uri);
        this.cut.delete(uri);
        this.drifted.delete(uri);
        if (this.pending.delete(uri)) this.host.notify({ uri, refCount: 0, fileCount: 0 });
    }

    /** Settings changed: with `never`, nothing is tracked any more. */
    configured(): void {
        if (this.enabled) return;
        for (const uri of [...this.pending.keys()]) this.closed(uri);
        this.windows.clear();
        this.baselines.clear();
    }

    /** Follow the refs through every change recorded so far. */
    flush(): void {
        this.debounce.cancel();
        if (this.windows.size === 0) return;
        this.host.settle();
        for (const [uri, window] of [...this.windows]) {
            this.windows.delete(uri);
            this.follow(uri, window);
        }
    }

    /** The pending updates of refs into `uri` as one WorkspaceEdit; they are no longer pending. */
    take(uri: string): RefUpdate {
        this.flush();
        const entries = [...(this.pending.get(uri)?.values() ?? [])];
        this.pending.delete(uri);
        this.brokenAtStart.delete(uri);
        return buildEdit(
            entries.map((e) => ({ ...e, file: this.host.current(e.fileUri) })),
            (fileUri) => this.host.openVersion(fileUri),
            refEdits,
        );
    }

    dismiss(uri: string): void {
        this.flush();
        this.pending.delete(uri);
        this.brokenAtStart.delete(uri);
    }

    private follow(uri: string, window: Window): void {
        const path = this.workspace.uris.uriToPath(uri);
        if (path === undefined) return;
        const nowText = window.document.getText();
        const crlf = window.before.includes("\r") || nowText.includes("\r");
        const beforeContent = normalizeLineEndings(window.before);
        const known = this.baselines.get(uri);
        const before = known?.content === beforeContent ? known : new SessionDocument(path, beforeContent);
        const cited = this.workspace.citable(uri);
        const afterContent = normalizeLineEndings(nowText);
        const after =
            cited.ok && cited.document.content === afterContent
                ? cited.document
                : new SessionDocument(path, afterContent);
        this.baselines.set(uri, after);
        // Offsets in CRLF text are not those of its LF-normalised form: there, one replacement is exact.
        const changes = crlf ? differenceOf(before.content, after.content) : window.changes;
        if (changes.length === 0) return;

        const style = boundaryStyle(this.workspace);
        let pending = this.pending.get(uri);
        let broken = this.brokenAtStart.get(uri);
        if (!broken) {
            broken = new Map();
            this.brokenAtStart.set(uri, broken);
        }
        let cut = this.cut.get(uri);
        const countBefore = pending?.size ?? 0;
        let moved = 0;
        const changed: ChangedCitation[] = [];
        let drifted = this.drifted.get(uri);
        if (!drifted) {
            drifted = new Set();
            this.drifted.set(uri, drifted);
        }
        for (const { file, site } of this.workspace.citationsOf(path)) {
            const key = `${file.uri}#${site.pointer}`;
            let entry = pending?.get(key);
            if (entry && !sameRef(entry.before, site.ref)) {
                pending?.delete(key); // the file was edited since: its ref as written counts now
                entry = undefined;
            }
            const wasCut = entry ? undefined : cut?.get(key);
            const pasteBack = wasCut !== undefined && sameRef(wasCut.before, site.ref);
            const wasBroken = broken.get(key);
            if (!pasteBack && !entry && wasBroken && sameRef(wasBroken, site.ref)) continue;
            let outcome = followRef(entry?.after ?? site.ref, before, after, changes, { style });
            if (wasCut) {
                // Only a ref that does not resolve (its text was cut) waits for the text to come back.
                // One that resolves before these changes follows what it resolves to: an old cut
                // no longer says where it points (undoing a paste "cuts" the refs that resolved in it).
                if (pasteBack && outcome.kind === "invalid-before") {
                    outcome = findPasted(site.ref, wasCut.text, before, after, { style });
                } else if (outcome.kind !== "invalid-before") {
                    cut?.delete(key);
                }
            }
            if (outcome.kind === "lost" && outcome.text !== undefined) {
                if (!cut) {
                    cut = new Map();
                    this.cut.set(uri, cut);
                }
                cut.set(key, { before: site.ref, text: outcome.text });
            } else if (outcome.kind === "followed") {
                cut?.delete(key);
            }
            // Only a move (the same text elsewhere) is offered; a changed word, inside the span or on
            // a boundary, is drift: the ref stays as written and the client says so (issue 34 item 6).
            if (!pasteBack && outcome.kind !== "invalid-before") {
                const texts = citedTexts(entry?.after ?? site.ref, before, after, outcome);
                if (texts.was !== undefined && texts.now !== texts.was) {
                    if (entry) pending?.delete(key);
                    if (!drifted.has(key))
                        changed.push({
                            fileUri: file.uri,
                            annotation: ordinal(site.annotation),
                            ...refRoleOf(site.role),
                        });
                    drifted.add(key);
                    continue;
                }
                if (outcome.kind === "followed") drifted.delete(key); // moved whole: said afresh next time
            }
            if (outcome.kind === "unchanged") continue;
            if (outcome.kind !== "followed") {
                if (entry) pending?.delete(key);
                if (outcome.kind === "invalid-before") broken.set(key, site.ref);
                continue;
            }
            moved++;
            if (sameRef(outcome.ref, site.ref)) {
                pending?.delete(key); // edited back to where the ref points
                continue;
            }
            if (!pending) {
                pending = new Map();
                this.pending.set(uri, pending);
            }
            pending.set(key, pendingOf(file, site, outcome.ref));
        }
        const count = pending?.size ?? 0;
        if (count === 0) {
            // Nothing pends: the refs as written are the truth again.
            this.pending.delete(uri);
            this.brokenAtStart.delete(uri);
        }
        if (moved > 0 || count !== countBefore || changed.length > 0) {
            const files = new Set([...(pending?.values() ?? [])].map((p) => p.fileUri));
            this.host.notify({
                uri,
                refCount: count,
                fileCount: files.size,
                ...(changed.length > 0 ? { changed } : {}),
            });
        }
    }
}

/**
 * The text `ref` cited before the changes (undefined: it did not resolve) and what its span says
 * after them (undefined: the span is gone).
 */
function citedTexts(
    ref: Ref,
    before: SessionDocument,
    after: SessionDocument,
    outcome: FollowOutcome,
): { was: string | undefined; now: string | undefined } {
    const was = resolveInDocument(before, ref);
    if (outcome.kind === "followed") return { was: was.valid ? was.text : undefined, now: outcome.text };
    const now = outcome.kind === "unchanged" ? resolveInDocument(after, ref) : undefined;
    return { was: was.valid ? was.text : undefined, now: now?.valid ? now.text : undefined };
}

function pendingOf(file: AnnotationFile, site: RefSite, after: Ref): Pending {
    return {
        fileUri: file.uri,
        annotation: site.annotation,
        role: site.role,
        pointer: site.pointer,
        before: site.ref,
        after,
    };
}

/**
 * The token edits turning a ref into another, from the one ref writer (core/annotationEdits.ts): only
 * the `path`, `line` and `str` values that differ, as LSP TextEdits.
 */
export function refEdits(file: AnnotationFile, site: RefSite, after: Ref): TextEdit[] {
    return refTokenEdits(site.pointer, site.ref, after, (pointer) => file.spanOf(pointer)).map((edit) => ({
        range: rangeOfSpan(file, edit),
        newText: edit.content,
    }));
}

interface PlannedUpdate {
    file: AnnotationFile | undefined;
    annotation: number;
    role: "claim" | number;
    before: Ref;
    after: Ref;
}

/**
 * One WorkspaceEdit for many ref updates. A ref whose file no longer says `before` is skipped (it was
 * edited meanwhile). Open files carry their version, so a client can refuse an edit of another one.
 */
function buildEdit(
    updates: PlannedUpdate[],
    openVersion: (uri: string) => number | undefined,
    edits: (file: AnnotationFile, site: RefSite, after: Ref) => TextEdit[],
): RefUpdate {
    const byFile = new Map<AnnotationFile, { site: RefSite; after: Ref }[]>();
    for (const update of updates) {
        const site = update.file?.site(update.annotation, update.role);
        if (!update.file || !site || !sameRef(site.ref, update.before)) continue;
        const list = byFile.get(update.file);
        if (list) list.push({ site, after: update.after });
        else byFile.set(update.file, [{ site, after: update.after }]);
    }
    const documentChanges: TextDocumentEdit[] = [];
    let refCount = 0;
    for (const [file, list] of byFile) {
        // One scan of the file locates every token (no parse tree for a large closed file).
        file.spansOf(list.flatMap(({ site }) => refTokenPointers(site.pointer)));
        const fileEdits = list.flatMap(({ site, after }) => edits(file, site, after));
        if (fileEdits.length === 0) continue;
        refCount += list.length;
        documentChanges.push({
            textDocument: { uri: file.uri, version: openVersion(file.uri) ?? null },
            edits: fileEdits,
        });
    }
    const edit: WorkspaceEdit = { documentChanges };
    return { edit, refCount, fileCount: documentChanges.length };
}

/** The path a ref should have for a file at `absolute`, relative to the root, or undefined outside it. */
function refPathFor(root: string, absolute: string): string | undefined {
    if (!isInside(root, absolute)) return undefined;
    const relative = nodePath.relative(root, absolute);
    return relative === "" ? undefined : relative.split(nodePath.sep).join("/");
}

/** The `path` edits for files (or folders) renamed from oldUri to newUri. */
export function pathsForRename(
    workspace: FollowingWorkspace,
    params: PathsForRenameParams,
    current: (uri: string) => AnnotationFile | undefined,
    openVersion: (uri: string) => number | undefined,
): RefUpdate {
    const updates: PlannedUpdate[] = [];
    for (const { oldUri, newUri } of params.files ?? []) {
        const from = workspace.uris.uriToPath(oldUri);
        const to = workspace.uris.uriToPath(newUri);
        if (from === undefined || to === undefined) continue;
        for (const cited of [from, ...workspace.citedUnder(from)]) {
            const moved = cited === from ? to : nodePath.join(to, nodePath.relative(from, cited));
            for (const { file, site } of workspace.citationsOf(cited)) {
                if (file.root === undefined) continue;
                const path = refPathFor(file.root, moved);
                if (path === undefined || path === site.ref.path) continue;
                updates.push({
                    file: current(file.uri) ?? file,
                    annotation: site.annotation,
                    role: site.role,
                    before: site.ref,
                    after: { ...site.ref, path },
                });
            }
        }
    }
    return buildEdit(updates, openVersion, refEdits);
}
