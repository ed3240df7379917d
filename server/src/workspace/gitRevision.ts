/**
 * Documents as they were at a git revision (`sourcecheck repair --since REV`, docs/repair.md): git
 * runs as a child process, never a shell; paths obey the same root safety as documents on disk.
 */
import type { execFileSync as ExecFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { normalizeLineEndings } from "../core/lines";
import { type DocumentLookup, SessionDocument } from "../core/session";
import { decodeText } from "./diskDocuments";
import { resolveUnderRoot } from "./pathSafety";

export class GitRevisionError extends Error {}

const MAX_BYTES = 64 * 1024 * 1024;

/** node:child_process on first use: repair loads this module on every run, but runs git only with refs to repair. */
function execFileSync(...args: Parameters<typeof ExecFileSync>): Buffer {
    return (require("node:child_process") as typeof import("node:child_process")).execFileSync(...args) as Buffer;
}

function git(root: string, args: string[]): Buffer {
    return execFileSync("git", args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], maxBuffer: MAX_BYTES });
}

/** The documents under `root` at revision `rev`; throws GitRevisionError (one clear line) when it cannot. */
export class GitRevisionDocuments implements DocumentLookup {
    private readonly cache = new Map<string, SessionDocument | undefined>();

    private constructor(
        readonly root: string,
        readonly commit: string,
    ) {}

    static open(root: string, rev: string): GitRevisionDocuments {
        if (rev.length === 0 || rev.startsWith("-"))
            throw new GitRevisionError(`not a revision: ${JSON.stringify(rev)}`);
        try {
            git(root, ["rev-parse", "--is-inside-work-tree"]);
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code === "ENOENT") {
                throw new GitRevisionError("--since needs git, and git is not installed (or not on PATH)");
            }
            throw new GitRevisionError(`--since needs a git work tree, and ${root} is not inside one`);
        }
        let commit: string;
        try {
            commit = git(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`])
                .toString("utf8")
                .trim();
        } catch {
            throw new GitRevisionError(`unknown revision ${JSON.stringify(rev)} in the git repository of ${root}`);
        }
        return new GitRevisionDocuments(root, commit);
    }

    /** The document at the revision, or undefined when it did not exist there (or is not text). */
    get(path: string): SessionDocument | undefined {
        if (this.cache.has(path)) return this.cache.get(path);
        let document: SessionDocument | undefined;
        if (resolveUnderRoot(this.root, path).ok) {
            try {
                const bytes = git(this.root, ["show", `${this.commit}:./${path.replace(/\\/g, "/")}`]);
                const decoded = decodeText(bytes);
                if (decoded.ok) document = new SessionDocument(path, normalizeLineEndings(decoded.text));
            } catch {
                document = undefined; // not in that revision
            }
        }
        this.cache.set(path, document);
        return document;
    }
}

/**
 * The last commit that changed `file` (an absolute path), or undefined when there is none: not in
 * a git work tree, git missing, the file never committed. Repair's history comes from it
 * (docs/repair.md, "Evidence"): the documents as they were when the refs were last committed.
 */
export function lastCommitOf(file: string): string | undefined {
    const directory = nodePath.dirname(file);
    // Outside a work tree git can only fail: no process is started for it (the check tool asks on
    // every call that names a missing document, and a spawn costs tens of milliseconds).
    if (!mayBeInWorkTree(directory)) return undefined;
    try {
        const commit = execFileSync("git", ["log", "-1", "--format=%H", "--", nodePath.basename(file)], {
            cwd: directory,
            stdio: ["ignore", "pipe", "ignore"],
        })
            .toString("utf8")
            .trim();
        return /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
    } catch {
        return undefined;
    }
}

/**
 * False when no folder from `directory` up holds `.git` (a folder, or a worktree's file) and git is
 * not pointed elsewhere by GIT_DIR: git would find no repository there.
 */
export function mayBeInWorkTree(directory: string): boolean {
    if (process.env.GIT_DIR) return true;
    for (let at = nodePath.resolve(directory); ; at = nodePath.dirname(at)) {
        if (fs.existsSync(nodePath.join(at, ".git"))) return true;
        if (nodePath.dirname(at) === at) return false;
    }
}

/**
 * The renames git records under `root` since `rev` (committed, staged or in the work tree): old
 * path -> new paths, both relative to `root`. Empty without git or outside a work tree. Renamed
 * documents are found by it (docs/repair.md, "Renamed documents").
 */
export function renamesSince(root: string, rev: string): Map<string, string[]> {
    const renames = new Map<string, string[]>();
    if (rev.length === 0 || rev.startsWith("-")) return renames;
    let out: string;
    try {
        out = git(root, ["diff", "--name-status", "-M", "--relative", "-z", rev, "--"]).toString("utf8");
    } catch {
        return renames;
    }
    const fields = out.split("\0");
    for (let i = 0; i < fields.length; i++) {
        const status = fields[i];
        if (status.startsWith("R") && i + 2 < fields.length) {
            const list = renames.get(fields[i + 1]) ?? [];
            list.push(fields[i + 2]);
            renames.set(fields[i + 1], list);
            i += 2;
        } else if (/^[CR]/.test(status)) i += 2;
        else if (status.length > 0) i += 1;
    }
    return renames;
}
