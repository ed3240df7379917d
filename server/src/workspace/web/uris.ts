/**
 * The browser's twin of workspace/uris.ts (docs/web.md): the workspace is one scheme and authority
 * (`vscode-vfs://github/owner/repo`, a test's `sourcecheck-mem:/`), so a path is the URI's path and a
 * URI is that path in the workspace's scheme. URIs of any other scheme or authority have no path, as
 * `untitled:` has none on the desktop.
 */
import { URI } from "vscode-uri";

let space: { scheme: string; authority: string } = { scheme: "file", authority: "" };

/** The scheme and authority of the workspace's folders, from the first of them (initialize). */
export function useUriSpace(folderUri: string): void {
    const parsed = URI.parse(folderUri);
    space = { scheme: parsed.scheme, authority: parsed.authority };
}

export function uriToPath(uri: string): string | undefined {
    let parsed: URI;
    try {
        parsed = URI.parse(uri, true);
    } catch {
        return undefined;
    }
    if (parsed.scheme !== space.scheme || parsed.authority !== space.authority) return undefined;
    return parsed.path.length > 1 ? parsed.path.replace(/\/+$/, "") : parsed.path;
}

export function pathToUri(path: string): string {
    return URI.from({ scheme: space.scheme, authority: space.authority, path }).toString();
}
