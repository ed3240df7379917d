/**
 * `sourcecheck/annotationEdit` (docs/custom-protocol.md): the client's authoring writes (cite a claim,
 * add a source) computed by the one annotation-file writer (core/annotationEdits.ts) on the text the
 * client holds, and returned as one WorkspaceEdit carrying the document's version, so the editor
 * refuses it if the file changed meanwhile and one undo takes it back. No connection, no disk.
 */
import type { TextDocumentEdit, TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { AnnotationEditParams, AnnotationEditResult } from "../../../shared/customProtocol";
import { indexOfOrdinal, ordinal } from "../../../shared/numbering";
import {
    appendClaim,
    appendSource,
    detectFormatting,
    type EditResult,
    embeddedPaths,
    type OffsetEdit,
} from "../core/annotationEdits";

function fileName(uri: string): string {
    const path = uri.replace(/[?#].*$/, "");
    return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
}

/** The edit an authoring command asks for, or why the file cannot take it (nothing is written then). */
export function annotationEdit(params: AnnotationEditParams): AnnotationEditResult {
    const { uri, text, change } = params;
    if (typeof uri !== "string" || typeof text !== "string" || typeof change !== "object" || change === null) {
        return { ok: false, message: "annotationEdit needs { uri, text, version, formatting, change }" };
    }
    if (change.kind !== "appendClaim" && change.kind !== "appendSource") {
        return { ok: false, message: `unknown change ${JSON.stringify((change as { kind: unknown }).kind)}` };
    }
    const name = fileName(uri);
    const ref = change.kind === "appendClaim" ? change.claim : change.source;
    // A file that embeds its own session resolves refs against its documents only: a ref to a
    // workspace file would be written broken.
    const paths = embeddedPaths(text);
    if (paths !== undefined && !paths.includes(ref.path)) {
        return {
            ok: false,
            code: "not-in-session",
            path: ref.path,
            message: `${name} embeds its own session, which has no document ${JSON.stringify(ref.path)}`,
        };
    }
    const formatting = detectFormatting(text, {
        tabSize: params.formatting?.tabSize ?? 2,
        insertSpaces: params.formatting?.insertSpaces !== false,
    });
    const result: EditResult =
        change.kind === "appendClaim"
            ? appendClaim(text, name, change.claim, formatting)
            : appendSource(text, name, indexOfOrdinal(change.annotation), change.source, formatting);
    if (!result.ok) return result;
    return {
        ok: true,
        edit: workspaceEditOf(uri, text, params.version, result.edits),
        annotation: ordinal(result.annotationIndex),
        source: result.sourceIndex === undefined ? undefined : ordinal(result.sourceIndex),
    };
}

/** Offset edits of `text` as one WorkspaceEdit; a file without a version is created by the same edit. */
function workspaceEditOf(uri: string, text: string, version: number | null, edits: OffsetEdit[]): WorkspaceEdit {
    const document = TextDocument.create(uri, "json", 0, text);
    const textEdits: TextEdit[] = edits.map((edit) => ({
        range: { start: document.positionAt(edit.offset), end: document.positionAt(edit.offset + edit.length) },
        newText: edit.content,
    }));
    const textChange: TextDocumentEdit = { textDocument: { uri, version }, edits: textEdits };
    if (version !== null) return { documentChanges: [textChange] };
    return { documentChanges: [{ kind: "create", uri, options: { ignoreIfExists: true } }, textChange] };
}
