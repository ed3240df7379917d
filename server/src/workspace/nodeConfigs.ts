/**
 * Configuration files on the disk, read through the one safe reader (safeFile.ts): what the CLI, the
 * MCP server and the Node language server read `sourcecheck.config.json` with. projectConfig.ts takes
 * its reader from its caller, so the web worker reads them from the client's files (docs/web.md).
 */
import { configFileSystemOver, ProjectConfigs } from "./projectConfig";
import { readTextFile } from "./safeFile";

export const nodeConfigFileSystem = configFileSystemOver(readTextFile);

/** A fresh cache of the disk's configurations. */
export function nodeProjectConfigs(): ProjectConfigs {
    return new ProjectConfigs(nodeConfigFileSystem);
}
