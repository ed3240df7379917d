/**
 * Ref paths as agents type them (docs/agents.md): `./docs/a.md` and `docs\a.md` name `docs/a.md`, and
 * that is the path written into a ref, so one document is never cited under two spellings. Paths
 * that cannot name a document under the root are refused with a message, not passed on. Pure.
 */

/** `path-outside-root` for absolute and climbing paths (as path safety says), `invalid-path` for none at all. */
export type RefPathVerdict =
    | { ok: true; path: string }
    | { ok: false; code: "path-outside-root" | "invalid-path"; message: string };

export function normalizeRefPath(path: string): RefPathVerdict {
    const quoted = JSON.stringify(path);
    const slashed = path.replace(/\\/g, "/");
    if (slashed.startsWith("/") || /^[a-zA-Z]:/.test(slashed)) {
        return {
            ok: false,
            code: "path-outside-root",
            message: `the path ${quoted} is absolute: give it relative to the root, e.g. "docs/notes.md"`,
        };
    }
    const parts: string[] = [];
    for (const part of slashed.split("/")) {
        if (part === "" || part === ".") continue;
        if (part === "..") {
            if (parts.length === 0) {
                return {
                    ok: false,
                    code: "path-outside-root",
                    message: `the path ${quoted} climbs out of the root with "..": give it relative to the root`,
                };
            }
            parts.pop();
            continue;
        }
        parts.push(part);
    }
    if (parts.length === 0)
        return {
            ok: false,
            code: "invalid-path",
            message: `the path ${quoted} names no file: give a document's path relative to the root`,
        };
    return { ok: true, path: parts.join("/") };
}
