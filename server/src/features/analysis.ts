/**
 * Keeping analyses current: annotation files are re-checked when edited, and their refs into a
 * document re-resolved when that document changes (in an editor or on disk). Work is debounced and
 * superseded work dropped; features ask `current(uri)`, which first finishes pending work for that
 * file, so nothing is answered from an older version than the buffer.
 */
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { AnnotationFile } from "../workspace/annotationFile";
import { documentText } from "../workspace/editedDocument";
import { Debounce } from "./debounce";
import type { CheckingWorkspace } from "./featureWorkspace";

export interface OpenDocuments {
    get(uri: string): TextDocument | undefined;
}

export interface AnalysisEvents {
    /** Files whose problems changed, and cited documents whose spans may have changed. */
    changed(files: AnnotationFile[], citedUris: string[]): void;
    /** An annotation file that can no longer be read (deleted, no longer text): forget its diagnostics. */
    removed(uri: string): void;
    log(message: string): void;
}

export class Analysis {
    private readonly pendingFiles = new Set<string>();
    private readonly pendingCited = new Set<string>();
    /** Cited documents of a check put off until its reads arrived (docs/web.md). */
    private readonly carriedCited = new Set<string>();
    private waitingForReads = false;
    /** Each change restarts the wait, so a burst of keystrokes costs one check. */
    private readonly debounce: Debounce;

    constructor(
        readonly workspace: CheckingWorkspace,
        private readonly documents: OpenDocuments,
        private readonly events: AnalysisEvents,
        delayMs = 120,
    ) {
        this.debounce = new Debounce(delayMs, () => {
            try {
                this.flush();
            } catch (error) {
                this.events.log(
                    `sourcecheck: re-check failed: ${error instanceof Error ? error.stack : String(error)}`,
                );
            }
        });
        // A file checked while a read was pending is checked again once it arrived (docs/web.md).
        workspace.reads.onArrived(() => {
            const halfRead = workspace.halfReadFiles();
            if (halfRead.length === 0) return;
            for (const uri of halfRead) this.pendingFiles.add(uri);
            this.debounce.schedule();
        });
    }

    /** The analysis of an annotation file at its latest version (open buffer, else disk). */
    current(uri: string): AnnotationFile | undefined {
        this.settle();
        const open = this.documents.get(uri);
        const known = this.workspace.get(uri);
        // Checked while a read was pending, and all arrived since: that check took it as absent.
        const stale = known !== undefined && this.workspace.isHalfRead(uri) && !this.workspace.reads.hasPending();
        if (!open) return stale ? (this.workspace.analyzeFromDisk(uri, known.version) ?? known) : known;
        if (!this.workspace.isAnnotationFile(uri, open.languageId)) return undefined;
        return known && known.version === open.version && !stale ? known : this.analyzeOpen(open);
    }

    /** Finish pending work (before answering from the index as a whole). */
    settle(): void {
        if (this.pendingFiles.size > 0 || this.pendingCited.size > 0) this.flush();
    }

    /** An annotation file's buffer changed or opened: re-check it soon. */
    fileChanged(uri: string): void {
        this.pendingFiles.add(uri);
        this.debounce.schedule();
    }

    /** A document changed; if annotation files cite it, re-resolve their refs into it soon. */
    citedChanged(uri: string): void {
        const path = this.workspace.uris.uriToPath(uri);
        if (path === undefined) return;
        this.pendingCited.add(path);
        this.debounce.schedule();
    }

    /** Run everything pending now (the debounce fired, or a request needs current results). */
    flush(): void {
        this.debounce.cancel();
        const changed = new Map<string, AnnotationFile>();
        const cited = new Set<string>();
        for (const file of this.flushCited(cited)) changed.set(file.uri, file);
        for (const uri of [...this.pendingFiles]) {
            this.pendingFiles.delete(uri);
            const previous = this.workspace.get(uri);
            const open = this.documents.get(uri);
            const file = open ? this.analyzeOpen(open) : this.workspace.analyzeFromDisk(uri);
            if (!file && this.workspace.reads.hasPending()) {
                this.pendingFiles.add(uri);
                continue;
            }
            if (!file) {
                if (previous) {
                    this.workspace.remove(uri);
                    this.events.removed(uri);
                    for (const target of this.citedUris(previous)) cited.add(target);
                }
                continue;
            }
            changed.set(uri, file);
            // Spans cited before the edit may be gone, those cited now may be new: both changed.
            for (const each of previous ? [previous, file] : [file]) {
                for (const target of this.citedUris(each)) cited.add(target);
            }
        }
        if (this.workspace.reads.hasPending()) {
            this.checkAgainOnceRead(changed.keys(), cited);
            return;
        }
        for (const uri of this.carriedCited) cited.add(uri);
        this.carriedCited.clear();
        if (changed.size > 0 || cited.size > 0) this.events.changed([...changed.values()], [...cited]);
    }

    /**
     * Some reads of this check are still on their way (the browser's files come from the client:
     * docs/web.md): nothing half-read is shown; the same files are checked again once they arrived.
     */
    private checkAgainOnceRead(uris: Iterable<string>, cited: Set<string>): void {
        for (const uri of uris) this.pendingFiles.add(uri);
        for (const uri of cited) this.carriedCited.add(uri);
        if (this.waitingForReads) return;
        this.waitingForReads = true;
        // The index already dropped what was decided without each answer, as it arrived (its onArrived).
        void this.workspace.reads.settle().then(() => {
            this.waitingForReads = false;
            this.debounce.schedule();
        });
    }

    /** URIs of the workspace documents a file cites. */
    citedUris(file: AnnotationFile): string[] {
        const uris: string[] = [];
        for (const path of file.citedPaths()) {
            const uri = this.workspace.uriOf(file, path);
            if (uri) uris.push(uri);
        }
        return uris;
    }

    private flushCited(cited = new Set<string>()): AnnotationFile[] {
        const changed: AnnotationFile[] = [];
        for (const path of [...this.pendingCited]) {
            this.pendingCited.delete(path);
            const files = this.workspace.documentChanged(path);
            changed.push(...files);
            cited.add(this.workspace.uris.pathToUri(path));
            // A verdict may have changed with it: the claims and sources elsewhere are drawn by it too.
            for (const file of files) for (const target of this.citedUris(file)) cited.add(target);
        }
        return changed;
    }

    private analyzeOpen(document: TextDocument): AnnotationFile {
        // The buffer's pieces, not its whole text: an edit of one annotation reads that annotation alone.
        return this.workspace.analyze(document.uri, document.version, documentText(document));
    }
}
