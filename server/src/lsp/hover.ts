/** Hover, and the other read-only views of a position: definition, references, document links, inlay hints. */
import { afterReads, type ServerContext } from "./context";

export function registerHover({ connection, service, client, safe }: ServerContext): void {
    connection.onHover(
        afterReads(
            service,
            safe("hover", null, (params) => service.hover(params)),
        ),
    );
    connection.onDefinition(
        afterReads(
            service,
            safe("definition", null, (params) =>
                service.definition(params, client.capabilities.textDocument?.definition?.linkSupport === true),
            ),
        ),
    );
    connection.onReferences(
        afterReads(
            service,
            safe("references", [], (params) => service.references(params)),
        ),
    );
    connection.onDocumentLinks(
        afterReads(
            service,
            safe("document links", [], (params) => service.documentLinks(params.textDocument.uri)),
        ),
    );
    connection.languages.inlayHint.on(
        afterReads(
            service,
            safe("inlay hints", [], (params) => service.inlayHints(params)),
        ),
    );
}
