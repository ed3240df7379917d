/**
 * The language service behind the connection (docs/architecture.md), as vscode-markdown-languageservice's
 * `createLanguageService`: one frozen object whose methods serve every request the server answers, the
 * standard LSP ones and the custom protocol's, in LSP and shared/ types, holding no `Connection`. It
 * builds the workspace index over the open documents it is given; nothing outside it sees the index,
 * the analysis or the features: the registrations of server/src/lsp/ import this module and nothing
 * else of the server. Pages are fetched only through `fetchPage`, evidence and the agent tools are
 * what the host injects (absent in the browser: docs/web.md).
 */
import { type LanguageServiceOptions, ServiceCore } from "./service/core";
import { customRequests } from "./service/customRequests";
import { editorRequests } from "./service/editorRequests";
import { documentEvents, workspaceEvents } from "./service/workspaceEvents";

/** What a service method throws when its `cancelled` said so: the request answers RequestCancelled. */
export { OperationCancelled } from "./agentTools/cooperative";
export type { SearchStep } from "./evidence/steps";
export type { SearchWork } from "./features/evidenceClaim";
export type { AgentToolHandler, LanguageServiceOptions, Logger, ServiceEvents } from "./service/core";
export { NOT_IN_BROWSER } from "./service/core";
export type { Target } from "./service/editorRequests";
export { ALL_CODE_ACTION_KINDS } from "./service/editorRequests";
export type { ConfigurationKey, DocumentRole } from "./service/workspaceEvents";
/** An annotation file as checked: what the service's events and diagnostics carry. */
export type { AnnotationFile } from "./workspace/annotationFile";
export type { OpenDocuments } from "./workspace/openBuffers";

export type LanguageService = Readonly<
    ReturnType<typeof editorRequests> &
        ReturnType<typeof customRequests> &
        ReturnType<typeof documentEvents> &
        ReturnType<typeof workspaceEvents>
>;

export function createLanguageService(options: LanguageServiceOptions): LanguageService {
    const core = new ServiceCore(options);
    return Object.freeze({
        ...editorRequests(core),
        ...customRequests(core),
        ...documentEvents(core),
        ...workspaceEvents(core),
    });
}
