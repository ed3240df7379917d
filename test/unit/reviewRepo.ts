/**
 * A real git history for `sourcecheck review`'s tests: a base on `main`, and a pull request on `pr`
 * that shifts a cited document (its name not ASCII, so byte and UTF-16 columns differ), rewords the
 * text of a locked source, and adds an annotation file whose ref is line-shifted. An older broken ref
 * in a file the PR never touches must never be reported.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runCli } from "./cliRun";

export const REPORT = "docs/rapport-été.md";

export function git(dir: string, args: string[]): string {
    return execFileSync("git", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");
}

function ref(file: string, line: number, start: string, end: string, source = false): string {
    const extra = source ? `, "polarity": "supports", "confidence": 0.9` : "";
    const q = JSON.stringify;
    return `{ "path": ${q(file)}, "start": { "line": ${line}, "str": ${q(start)} }, "end": { "line": ${line}, "str": ${q(end)} }${extra} }`;
}

/** An annotation file of one annotation per entry, each on its own lines. */
export function annotationText(entries: { claim: string; sources: string[] }[]): string {
    const annotations = entries.map(
        (e) =>
            `    {\n      "claim": ${e.claim},\n      "sources": [\n        ${e.sources.join(",\n        ")}\n      ]\n    }`,
    );
    return `{\n  "annotations": [\n${annotations.join(",\n")}\n  ]\n}\n`;
}

export function write(dir: string, file: string, text: string): void {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
}

export function commitAll(dir: string, message: string): string {
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "-m", message]);
    return git(dir, ["rev-parse", "HEAD"]).trim();
}

export function newRepository(prefix = "sourcecheck-review-"): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    git(dir, ["init", "-q", "-b", "main"]);
    git(dir, ["config", "user.email", "review@example.invalid"]);
    git(dir, ["config", "user.name", "Review Test"]);
    git(dir, ["config", "commit.gpgsign", "false"]);
    return dir;
}

export interface ReviewRepository {
    dir: string;
    base: string;
    head: string;
}

/** The base on main and the pull request's commit on `pr` (checked out). */
export function pullRequestRepository(): ReviewRepository {
    const dir = newRepository();
    write(
        dir,
        REPORT,
        "Report\n\nThe alpha result was 37 percent.\nThe beta result was 12 percent.\nThe gamma result was flat.\n",
    );
    write(dir, "notes/locked.md", "Locked notes\nThe rate rose 5 percent in May.\nNothing else.\n");
    write(dir, "notes/untouched.md", "Untouched\nOne line.\n");
    write(dir, "answer.md", "Answer\nAlpha was 37 percent.\nBeta was 12 percent.\nRate rose in May.\n");
    const claim = (line: number, s: string, e: string) => ref("answer.md", line, s, e);
    write(
        dir,
        "a.sourcecheck.json",
        annotationText([
            { claim: claim(2, "Alpha", "percent."), sources: [ref(REPORT, 3, "The alpha", "percent.", true)] },
        ]),
    );
    write(
        dir,
        "b.sourcecheck.json",
        annotationText([
            { claim: claim(4, "Rate", "May."), sources: [ref("notes/locked.md", 2, "The rate", "May.", true)] },
        ]),
    );
    // Broken before the PR, in a file the PR never touches: not this change's problem.
    write(
        dir,
        "d.sourcecheck.json",
        annotationText([
            { claim: claim(3, "Beta", "percent."), sources: [ref("notes/untouched.md", 9, "One", "line.", true)] },
        ]),
    );
    const locked = runCli(["lock", "b.sourcecheck.json"], { cwd: dir });
    if (locked.status !== 0) throw new Error(`lock failed: ${locked.stdout}${locked.stderr}`);
    const base = commitAll(dir, "base");
    git(dir, ["checkout", "-q", "-b", "pr"]);
    write(dir, REPORT, `Inserted one.\nInserted two.\n${fs.readFileSync(path.join(dir, REPORT), "utf8")}`);
    write(dir, "notes/locked.md", "Locked notes\nThe rate fell 5 percent in May.\nNothing else.\n");
    write(
        dir,
        "c.sourcecheck.json",
        annotationText([
            { claim: claim(3, "Beta", "percent."), sources: [ref(REPORT, 4, "The beta", "percent.", true)] },
        ]),
    );
    const head = commitAll(dir, "the pull request");
    return { dir, base, head };
}

/** `count` annotation files added by one PR, each with one broken ref (no repair: the text is gone). */
export function manyFindingsRepository(count: number): ReviewRepository {
    const dir = newRepository();
    write(dir, "doc.md", "Doc\nThe only line.\n");
    write(dir, "answer.md", "Answer\nA claim.\n");
    const base = commitAll(dir, "base");
    git(dir, ["checkout", "-q", "-b", "pr"]);
    for (let i = 1; i <= count; i++) {
        const claim = ref("answer.md", 2, "A", "claim.");
        write(
            dir,
            `many/f${String(i).padStart(2, "0")}.sourcecheck.json`,
            annotationText([{ claim, sources: [ref("doc.md", 2, "The only", `gone ${i}.`, true)] }]),
        );
    }
    const head = commitAll(dir, "forty files");
    return { dir, base, head };
}
