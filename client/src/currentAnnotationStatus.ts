/**
 * A language status item naming the current annotation while you author: where "Add Selection as
 * Supporting/Refuting Source" will write, visible from whichever document you are selecting in.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { AnnotationTarget, CurrentAnnotation } from "./currentAnnotation";
import { OPEN_REF_COMMAND } from "./hover";
import { annotationName } from "./l10n";

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
        this.item.name = vscode.l10n.t("SourceCheck current annotation");
        this.item.text = `$(pin) ${annotationName(target.index)}`;
        this.item.detail = vscode.l10n.t("next source goes to {0}", file);
        this.item.command = {
            title: vscode.l10n.t("Open"),
            command: OPEN_REF_COMMAND,
            arguments: [{ uri: target.annotationFile }],
        };
    }

    dispose(): void {
        this.subscription.dispose();
        this.item?.dispose();
    }
}
