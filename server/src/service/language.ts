/**
 * The language the service speaks to the editor (docs/localization.md): the client's display language
 * (`locale` of `initialize`) and its `@vscode/l10n` bundle, which the client passes as
 * `initializationOptions.l10n` (the extension's l10n/bundle.l10n.<locale>.json, as `vscode.l10n.bundle`
 * reads it, on the desktop and in the browser alike). `@vscode/l10n` keeps one bundle per process: the
 * server has one editor, so one language; the registrations' own `l10n.t` calls (progress) use it too.
 */
import * as l10n from "@vscode/l10n";
import { ENGLISH, type Translate } from "../features/messages";

/** The bundle's messages, strings only; undefined when there is none (English, or a client that sent nothing). */
function bundleOf(options: unknown): Record<string, string> | undefined {
    const raw = typeof options === "object" && options !== null ? (options as { l10n?: unknown }).l10n : undefined;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
    const contents: Record<string, string> = {};
    for (const [key, value] of Object.entries(raw)) if (typeof value === "string") contents[key] = value;
    return Object.keys(contents).length > 0 ? contents : undefined;
}

/** The service's `Translate` for this `initialize`: English for an English editor or without a bundle. */
export function translateFor(locale: string | undefined, initializationOptions: unknown): Translate {
    const contents = locale && !/^en(-|$)/i.test(locale) ? bundleOf(initializationOptions) : undefined;
    l10n.config({ contents: contents ?? {} });
    return contents ? (message, args) => l10n.t(message, args) : ENGLISH;
}
