/**
 * The "current" annotation: where the next source goes. Set by citing a claim, and by the user moving
 * the cursor into an annotation of an annotation file (so "the annotation under the cursor" and
 * "the last one used" are one notion: whichever happened last).
 */
import * as vscode from "vscode";
import { annotationIndexAt } from "./annotationJson";
import { uriKey } from "./citedSpans";
import { isAnnotationDocument } from "./config";

export interface AnnotationTarget {
    /** URI string of the annotation file. */
    annotationFile: string;
    annotationIndex: number;
}

export class CurrentAnnotation implements vscode.Disposable {
    private target: AnnotationTarget | undefined;
    private readonly changed = new vscode.EventEmitter<AnnotationTarget | undefined>();
    private readonly disposables: vscode.Disposable[] = [this.changed];
    readonly onDidChange = this.changed.event;

    constructor() {
        this.disposables.push(
            vscode.window.onDidChangeTextEditorSelection((event) => {
                // Only the user's own cursor moves count, not selections set by commands or edits.
                const byUser =
                    event.kind === vscode.TextEditorSelectionChangeKind.Keyboard ||
                    event.kind === vscode.TextEditorSelectionChangeKind.Mouse;
                if (!byUser || !isAnnotationDocument(event.textEditor.document)) return;
                const document = event.textEditor.document;
                const index = annotationIndexAt(document.getText(), document.offsetAt(event.selections[0].active));
                if (index !== undefined) this.set({ annotationFile: uriKey(document.uri), annotationIndex: index });
            }),
        );
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
