/**
 * A language status item naming the current annotation while you author: where "Add Selection as
 * Supporting/Refuting Source" will write, visible from whichever document you are selecting in.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { annotationLabel } from "../../shared/numbering";
import type { AnnotationTarget, CurrentAnnotation } from "./currentAnnotation";
import { OPEN_REF_COMMAND } from "./hover";

export class CurrentAnnotationStatus implements vscode.Disposable {
    private item: vscode.LanguageStatusItem | undefined;
    private readonly subscription: vscode.Disposable;

    constructor(current: CurrentAnnotation) {
        this.subscription = current.onDidChange((target) => this.show(target));
        this.show(current.get());
    }

    private show(target: AnnotationTarget | undefined): void {
        if (!target) {
            this.item?.dispose();
            this.item = undefined;
            return;
        }
        this.item ??= vscode.languages.createLanguageStatusItem("sourcecheck.currentAnnotation", [
            { scheme: "file" },
            { scheme: "untitled" },
        ]);
        const file = path.posix.basename(vscode.Uri.parse(target.annotationFile).path);
        this.item.name = "SourceCheck current annotation";
        this.item.text = `$(pin) ${annotationLabel(target.annotationIndex)}`;
        this.item.detail = `next source goes to ${file}`;
        this.item.command = { title: "Open", command: OPEN_REF_COMMAND, arguments: [{ uri: target.annotationFile }] };
    }

    dispose(): void {
        this.subscription.dispose();
        this.item?.dispose();
    }
}
