/** Hover, and the other read-only views of a position: definition, references, document links, inlay hints. */
import type { ServerContext } from "./context";

export function registerHover({ connection, service, client, safe }: ServerContext): void {
    connection.onHover(safe("hover", null, (params) => service.hover(params)));
    connection.onDefinition(
        safe("definition", null, (params) =>
            service.definition(params, client.capabilities.textDocument?.definition?.linkSupport === true),
        ),
    );
    connection.onReferences(safe("references", [], (params) => service.references(params)));
    connection.onDocumentLinks(safe("document links", [], (params) => service.documentLinks(params.textDocument.uri)));
    connection.languages.inlayHint.on(safe("inlay hints", [], (params) => service.inlayHints(params)));
}
