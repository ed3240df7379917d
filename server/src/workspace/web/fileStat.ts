/** The browser's twin of workspace/fileStat.ts (docs/web.md): a virtual file system's paths are real. */
import { clientFiles } from "../clientFiles";

export function realPathOrUndefined(path: string): string | undefined {
    return clientFiles().stat(path) === undefined ? undefined : path;
}
