/** Code actions: the quick fixes of annotation files (features/codeActions.ts) and the quote files' conversion. */
import type { ServerContext } from "./context";

export function registerCodeActions({ connection, service, safe }: ServerContext): void {
    connection.onCodeAction(safe("code actions", [], (params) => service.codeActions(params)));
}
