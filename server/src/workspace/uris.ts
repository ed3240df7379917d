/**
 * URIs <-> paths, as a `UriSpace` the host gives the language service (docs/web.md): on Node, `file:`
 * URIs and the disk's paths (node:url's conversion; anything else, `untitled:` or
 * `vscode-notebook:`, has no path); in VS Code for the Web, the workspace's own scheme and authority
 * (`vscode-vfs://github/owner/repo`, a test's `sourcecheck-mem:/`), where a path is the URI's path.
 * One module for both builds: node:url is asked of the host (`process.getBuiltinModule`), not imported.
 */
import { URI } from "vscode-uri";

export interface UriSpace {
    /** The path a URI names in this space; undefined when it names none (another scheme or authority). */
    uriToPath(uri: string): string | undefined;
    /** The URI of a path in this space. */
    pathToUri(path: string): string;
}

/**
 * The URIs of one scheme and authority, a path being the URI's path (a virtual workspace: the browser's).
 * URIs of any other scheme or authority have no path, as `untitled:` has none on the desktop.
 */
export function virtualUriSpace(folderUri: string): UriSpace {
    const folder = URI.parse(folderUri);
    const { scheme, authority } = folder;
    return {
        uriToPath(uri) {
            let parsed: URI;
            try {
                parsed = URI.parse(uri, true);
            } catch {
                return undefined;
            }
            if (parsed.scheme !== scheme || parsed.authority !== authority) return undefined;
            return parsed.path.length > 1 ? parsed.path.replace(/\/+$/, "") : parsed.path;
        },
        pathToUri: (path) => URI.from({ scheme, authority, path }).toString(),
    };
}

type NodeUrl = Pick<typeof import("node:url"), "fileURLToPath" | "pathToFileURL">;

/** node:url where the host has one; else `file:` URIs as a virtual space of that scheme (a browser). */
function fileSpace(): UriSpace {
    const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const url = host?.getBuiltinModule?.("node:url") as NodeUrl | undefined;
    if (!url) return virtualUriSpace("file:///");
    // Every check asks again for the URIs of the documents its file cites, and every edit for its
    // file's path: node:url's answers are remembered (a relative path's depends on the working folder).
    return {
        uriToPath: remembered((uri) => {
            if (!uri.startsWith("file:")) return undefined;
            try {
                return url.fileURLToPath(uri);
            } catch {
                return undefined;
            }
        }),
        pathToUri: remembered((path) => url.pathToFileURL(path).href, ABSOLUTE),
    };
}

/** An absolute path on POSIX or Windows (a drive, or a UNC share). */
const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|\\\\)/;

/** Remembered answers of a conversion, at most 10,000 (then forgotten at once); `only`: the keys worth remembering. */
function remembered<T>(convert: (key: string) => T, only?: RegExp): (key: string) => T {
    const answers = new Map<string, T>();
    return (key) => {
        const known = answers.get(key);
        if (known !== undefined || answers.has(key)) return known as T;
        const answer = convert(key);
        if (only && !only.test(key)) return answer;
        if (answers.size >= 10_000) answers.clear();
        answers.set(key, answer);
        return answer;
    };
}

let files: UriSpace | undefined;

function filesSpace(): UriSpace {
    files ??= fileSpace();
    return files;
}

/** `file:` URIs and the disk's paths: the Node language server's space, and every space's start. */
export const FILE_URIS: UriSpace = {
    uriToPath: (uri) => filesSpace().uriToPath(uri),
    pathToUri: (path) => filesSpace().pathToUri(path),
};
