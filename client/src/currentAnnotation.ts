/**
 * The "current" annotation: where the next source goes. Set by citing a claim, and by the cursor
 * landing inside an annotation of an annotation file however it got there (click, keys, Go to Line,
 * the Problems panel, a link), so "the annotation under the cursor" and "the last one used" are one
 * notion: whichever happened last. Selections that only moved because the text was edited do not
 * count. The file is parsed at most once per version: cursor moves binary-search cached extents.
 */
import * as vscode from "vscode";
import { annotationExtents, indexAtOffset } from "../../shared/annotationList";
import { indexOfOrdinal } from "../../shared/numbering";
import { uriKey } from "./citedSpans";
import { isAnnotationDocument } from "./config";

export interface AnnotationTarget {
    /** URI string of the annotation file. */
    annotationFile: string;
    /** The annotation's 0-based position in the file's array (commands name it from 1). */
    index: number;
}

/** The 0-based position of a command's `annotation` argument, counted from 1; undefined unless a whole number ≥ 1. */
export function indexOfAnnotationArg(annotation: unknown): number | undefined {
    return Number.isInteger(annotation) && (annotation as number) >= 1
        ? indexOfOrdinal(annotation as number)
        : undefined;
}

/** What a command says when `annotation` is not a number counted from 1. */
export function annotationArgMessage(): string {
    return vscode.l10n.t("Pass annotation (a whole number counted from 1) with annotationFile.");
}

interface Extents {
    version: number;
    extents: [number, number][] | undefined;
}

export class CurrentAnnotation implements vscode.Disposable {
    private target: AnnotationTarget | undefined;
    private readonly changed = new vscode.EventEmitter<AnnotationTarget | undefined>();
    private readonly disposables: vscode.Disposable[] = [this.changed];
    /** Per annotation file: annotation extents of one version. */
    private readonly extents = new Map<string, Extents>();
    /** Per document: the version its last selection event saw, to tell edits from moves. */
    private readonly seenVersion = new Map<string, number>();
    /** How many times a file was parsed (for the e2e hook: once per version, not per move). */
    parses = 0;
    readonly onDidChange = this.changed.event;

    constructor() {
        this.disposables.push(
            vscode.window.onDidChangeTextEditorSelection((event) => this.selectionChanged(event)),
            vscode.workspace.onDidCloseTextDocument((document) => {
                this.extents.delete(uriKey(document.uri));
                this.seenVersion.delete(uriKey(document.uri));
            }),
        );
    }

    private selectionChanged(event: vscode.TextEditorSelectionChangeEvent): void {
        const document = event.textEditor.document;
        if (!isAnnotationDocument(document)) return;
        const key = uriKey(document.uri);
        const seen = this.seenVersion.get(key);
        this.seenVersion.set(key, document.version);
        // Typing, undo and our own edits move the cursor with the text (no kind): not a choice.
        if (event.kind === undefined && seen !== undefined && seen !== document.version) return;
        const index = this.indexAt(document, document.offsetAt(event.selections[0].active));
        if (index !== undefined) this.set({ annotationFile: key, index });
    }

    private indexAt(document: vscode.TextDocument, offset: number): number | undefined {
        const key = uriKey(document.uri);
        let cached = this.extents.get(key);
        if (cached?.version !== document.version) {
            this.parses++;
            cached = { version: document.version, extents: annotationExtents(document.getText()) };
            this.extents.set(key, cached);
        }
        return cached.extents ? indexAtOffset(cached.extents, offset) : undefined;
    }

    get(): AnnotationTarget | undefined {
        return this.target;
    }

    set(target: AnnotationTarget | undefined): void {
        this.target = target;
        this.changed.fire(target);
    }

    dispose(): void {
        for (const d of this.disposables) d.dispose();
    }
}
