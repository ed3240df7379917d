/**
 * What a change is, for `sourcecheck review` (docs/review.md): the files changed between the merge
 * base of two revisions and the head (`git diff base...head`, renames detected), or the work tree when
 * no head is given. git runs as a child process with arguments, never a shell; a revision is checked
 * by `rev-parse --verify` before any other use.
 */
import type { HistoryChanges, HistoryChange as ReviewChange } from "./workspace";

export class GitChangesError extends Error {}

const MAX_BYTES = 64 * 1024 * 1024;

function git(cwd: string, args: string[]): string {
    const childProcess = require("node:child_process") as typeof import("node:child_process");
    return childProcess
        .execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: MAX_BYTES })
        .toString("utf8");
}

/** The top folder of the git work tree holding `cwd`; a GitChangesError (one clear line) outside one. */
export function gitTopLevel(cwd: string): string {
    try {
        return git(cwd, ["rev-parse", "--show-toplevel"]).trim();
    } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") {
            throw new GitChangesError("review needs git, and git is not installed (or not on PATH)");
        }
        throw new GitChangesError(`review needs a git work tree, and ${cwd} is not inside one`);
    }
}

/** The full commit id a revision names; a GitChangesError when it names none. */
export function commitOf(root: string, rev: string): string {
    if (rev.length === 0 || rev.startsWith("-")) throw new GitChangesError(`not a revision: ${JSON.stringify(rev)}`);
    try {
        return git(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`]).trim();
    } catch {
        throw new GitChangesError(`unknown revision ${JSON.stringify(rev)}${shallowHint(root, "lacks it")}`);
    }
}

/**
 * Why a revision or merge base may be missing in CI: actions/checkout fetches one commit unless told
 * otherwise, and `base...head` needs the history down to the merge base (docs/ci.md).
 */
function shallowHint(root: string, what: string): string {
    let shallow = false;
    try {
        shallow = git(root, ["rev-parse", "--is-shallow-repository"]).trim() === "true";
    } catch {
        // an old git without the option: give the hint anyway
        shallow = true;
    }
    return shallow
        ? `: this clone is shallow and ${what}; check out with the history (actions/checkout: fetch-depth: 0)`
        : "";
}

/** The changes of `base...head` (head: a commit id), or from their merge base to the work tree without one. */
export function changesSince(root: string, base: string, head: string | undefined): ReviewChange[] {
    let mergeBase: string;
    try {
        mergeBase = git(root, ["merge-base", base, head ?? "HEAD"]).trim();
    } catch {
        throw new GitChangesError(
            `no merge base of ${base.slice(0, 12)} and ${(head ?? "HEAD").slice(0, 12)}${shallowHint(root, "stops before it")}`,
        );
    }
    const range = head === undefined ? [mergeBase] : [mergeBase, head];
    const out = git(root, ["diff", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", ...range, "--"]);
    return parseNameStatus(out);
}

/**
 * `base...head` of the repository at `root` (the Node history's `changesBetween`, workspace.ts): both
 * revisions resolved to commits, the head the checked-out one, then the changes.
 */
export function gitChangesBetween(root: string, baseRev: string, headRev: string | undefined): HistoryChanges {
    const base = commitOf(root, baseRev);
    const head = headRev === undefined ? undefined : commitOf(root, headRev);
    if (head !== undefined && head !== commitOf(root, "HEAD")) {
        throw new GitChangesError(
            `--head ${headRev} is not the checked-out commit: review reads the work tree, so check out ${head.slice(0, 12)} first`,
        );
    }
    return { base, head, changes: changesSince(root, base, head) };
}

const STATUS: Record<string, ReviewChange["status"]> = {
    A: "added",
    M: "modified",
    D: "deleted",
    R: "renamed",
    C: "copied",
    T: "type-changed",
};

/** `git diff --name-status -z` output: a status, then one path (two for a rename or copy), NUL-separated. */
export function parseNameStatus(out: string): ReviewChange[] {
    const fields = out.split("\0");
    const changes: ReviewChange[] = [];
    for (let i = 0; i < fields.length; i++) {
        const letter = fields[i].charAt(0);
        if (letter === "") continue;
        if (letter === "R" || letter === "C") {
            changes.push({ status: STATUS[letter], path: fields[i + 2], previousPath: fields[i + 1] });
            i += 2;
        } else {
            changes.push({ status: STATUS[letter] ?? "modified", path: fields[i + 1] });
            i += 1;
        }
    }
    return changes;
}
