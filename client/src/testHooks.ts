/**
 * The `sourcecheck._*` commands the e2e suite drives the client with (client/E2E-HOOKS.md). They
 * read internal state and one of them (`_refUpdates`) answers the ref-update prompt on the user's
 * behalf, so they exist only when VS Code runs the extension's tests: any other extension could
 * call a registered command. Pure (no `vscode` import) so a unit test can drive it with a fake
 * context; the caller passes `vscode.ExtensionMode.Test`.
 */
export type Handler = (...args: unknown[]) => unknown;

/** The prefix every test hook's id starts with; no contributed command uses it. */
export const TEST_HOOK_PREFIX = "sourcecheck._";

/**
 * Registers `hooks` (ids without the prefix) through `register` only when `extensionMode` is
 * `testMode`; returns the ids registered (none in a normal run).
 */
export function registerTestHooks(
    context: { extensionMode: number },
    testMode: number,
    register: (id: string, handler: Handler) => void,
    hooks: Record<string, Handler>,
): string[] {
    if (context.extensionMode !== testMode) return [];
    const ids: string[] = [];
    for (const [name, handler] of Object.entries(hooks)) {
        const id = `${TEST_HOOK_PREFIX}${name}`;
        register(id, handler);
        ids.push(id);
    }
    return ids;
}
