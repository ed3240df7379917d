/** file: URIs <-> file-system paths; anything else (untitled:, vscode-notebook:) has no path. */
import { fileURLToPath, pathToFileURL } from "node:url";

export function uriToPath(uri: string): string | undefined {
    if (!uri.startsWith("file:")) return undefined;
    try {
        return fileURLToPath(uri);
    } catch {
        return undefined;
    }
}

export function pathToUri(path: string): string {
    return pathToFileURL(path).href;
}
