/**
 * Configuration lookups that never read above a boundary (the MCP server's --root, the agents'
 * workspace folder): a sourcecheck.config.json above it, or one that is a symlink leading out of it,
 * is as if absent (docs/config.md, "Agents and the MCP server").
 */
import * as fs from "node:fs";
import { nodeConfigFileSystem } from "./nodeConfigs";
import { isInside } from "./pathSafety";
import { type ConfigFileSystem, ProjectConfigs } from "./projectConfig";

export function boundedConfigFileSystem(boundary: string): ConfigFileSystem {
    let realBoundary: string | undefined;
    return {
        readConfig(path) {
            if (!isInside(boundary, path)) return undefined;
            try {
                realBoundary ??= fs.realpathSync(boundary);
                if (!isInside(realBoundary, fs.realpathSync(path))) return undefined;
            } catch {
                return undefined;
            }
            return nodeConfigFileSystem.readConfig(path);
        },
    };
}

/** A fresh cache of configurations under a boundary (one per call: files may change between calls). */
export function boundedConfigs(boundary: string): ProjectConfigs {
    return new ProjectConfigs(boundedConfigFileSystem(boundary));
}
