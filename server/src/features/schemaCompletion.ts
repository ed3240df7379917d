/**
 * Completion of an annotation file's structure (property names, `polarity` values, snippets) from
 * the published JSON schema, by vscode-json-languageservice inside our server; likewise for a
 * sourcecheck.config.json, which VS Code gives its own language for the same reason. VS Code's own JSON
 * support is not asked to handle annotation files at all: it would validate them a second time and
 * label its parse errors with our language id (docs/editor-features.md, "Every problem once").
 */
import { getLanguageService, type JSONDocument, type LanguageService } from "vscode-json-languageservice";
import type { CompletionItem, Position, Range } from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import configSchema from "../../../schemas/sourcecheck.config.schema.json";
import annotationSchema from "../../../schemas/sourcecheck.schema.json";
import { MAX_NESTING, nestingBeyond } from "../../../shared/jsonNesting";

/** Which file's structure: an annotation file, or a sourcecheck.config.json (its own language in VS Code). */
export type SchemaKind = "annotations" | "config";

const SCHEMAS = {
    annotations: { uri: "sourcecheck://schemas/sourcecheck.schema.json", schema: annotationSchema },
    config: { uri: "sourcecheck://schemas/sourcecheck.config.schema.json", schema: configSchema },
};

const services = new Map<SchemaKind, LanguageService>();

function jsonService(kind: SchemaKind): LanguageService {
    let service = services.get(kind);
    if (!service) {
        // No schema request service: the one schema is given inline, nothing is ever fetched.
        service = getLanguageService({});
        const { uri, schema } = SCHEMAS[kind];
        service.configure({ validate: false, schemas: [{ uri, fileMatch: ["*"], schema }] });
        services.set(kind, service);
    }
    return service;
}

/** The parsed document of one version, so completions while typing parse once per edit. */
let parsed: { uri: string; version: number; json: JSONDocument } | undefined;

/**
 * Positions as the rest of the server counts them (lines split on `\n` only: docs/contract.md, "Resolution"); the JSON
 * service's text document also breaks lines at a lone `\r`, so positions cross over as offsets.
 */
export interface LineModel {
    offsetAt(position: Position): number;
    positionAt(offset: number): Position;
}

/** Structural completions at a position of an annotation or configuration file (never validation). */
export async function schemaCompletion(
    document: TextDocument,
    position: Position,
    lines: LineModel,
    kind: SchemaKind = "annotations",
): Promise<CompletionItem[]> {
    const json = jsonService(kind);
    if (parsed?.uri !== document.uri || parsed.version !== document.version) {
        // The JSON service's parser recurses per nesting level: absurd nesting gets no completion.
        if (nestingBeyond(document.getText(), MAX_NESTING) >= 0) return [];
        parsed = { uri: document.uri, version: document.version, json: json.parseJSONDocument(document) };
    }
    const at = document.positionAt(lines.offsetAt(position));
    const list = await json.doComplete(document, at, parsed.json);
    return (list?.items ?? []).map((item) => inOurLines(document, lines, item));
}

/** An item's edit ranges in our line model, clamped into the text. */
function inOurLines(document: TextDocument, lines: LineModel, item: CompletionItem): CompletionItem {
    const convert = (range: Range): Range => ({
        start: lines.positionAt(document.offsetAt(range.start)),
        end: lines.positionAt(document.offsetAt(range.end)),
    });
    const edit = item.textEdit;
    if (edit && "range" in edit) item.textEdit = { ...edit, range: convert(edit.range) };
    else if (edit && "insert" in edit)
        item.textEdit = { ...edit, insert: convert(edit.insert), replace: convert(edit.replace) };
    return item;
}
