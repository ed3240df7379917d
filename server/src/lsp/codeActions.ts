/** Code actions: the quick fixes of annotation files (features/codeActions.ts) and the quote files' conversion. */
import { afterReads, type ServerContext } from "./context";

export function registerCodeActions({ connection, service, safe }: ServerContext): void {
    connection.onCodeAction(
        afterReads(
            service,
            safe("code actions", [], (params) => service.codeActions(params)),
        ),
    );
}
