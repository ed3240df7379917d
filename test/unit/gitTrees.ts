/**
 * Generated git work trees for the discovery tests (unit and protocol): files with spaces and odd
 * names in nested folders, layered .gitignore files with negations, .git/info/exclude; and git's
 * own list of the annotation files it does not ignore, the oracle.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { isAnnotationFileName } from "../../server/src/workspace/discovery";

const FOLDERS = ["a", "b", "docs", "Docs", "x y", "sub dir", "!bang", "#hash", "build"];
const FILES = [
    "n.sourcecheck.json",
    "N.SourceCheck.json",
    "keep me.sourcecheck.json",
    "x.annotations.json",
    "notes.json",
    "readme.md",
];
const PATTERNS = [
    "*.json",
    "!*.sourcecheck.json",
    "*.annotations.json",
    "!x.annotations.json",
    "docs/",
    "/docs",
    "!docs/",
    "Docs",
    "b",
    "!b",
    "a/",
    "!a/",
    "a/*",
    "!a/b",
    "x y/",
    "sub dir",
    "!keep*",
    "keep me.sourcecheck.json",
    "\\!bang",
    "\\#hash",
    "#hash",
    "build/",
    "/*/n.sourcecheck.json",
    "**/b/**",
    "a/**/n*",
    "*/",
    "!*/",
    "N.*",
    "n.sourcecheck.json   ",
    "*.SOURCECHECK.json",
];

export interface Tree {
    files: string[];
    ignores: { folder: string; lines: string[] }[];
    infoExclude: string[];
}

const folderPath = fc
    .array(fc.constantFrom(...FOLDERS), { minLength: 0, maxLength: 3 })
    .map((parts) => parts.join("/"));
export const treeArbitrary: fc.Arbitrary<Tree> = fc.record({
    files: fc.uniqueArray(
        fc.tuple(folderPath, fc.constantFrom(...FILES)).map(([folder, name]) => (folder ? `${folder}/${name}` : name)),
        { minLength: 1, maxLength: 14 },
    ),
    ignores: fc.array(
        fc.record({
            folder: folderPath,
            lines: fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 4 }),
        }),
        { maxLength: 4 },
    ),
    infoExclude: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 3 }),
});

const gitEnv = (home: string) => ({
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_GLOBAL: path.join(home, "none"),
    GIT_CONFIG_NOSYSTEM: "1",
});

export function materialise(tree: Tree): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sc-git-"));
    const work = path.join(dir, "work");
    fs.mkdirSync(work);
    execFileSync("git", ["init", "-q", "--template=", work], { env: gitEnv(dir) });
    for (const file of tree.files) {
        fs.mkdirSync(path.join(work, path.dirname(file)), { recursive: true });
        fs.writeFileSync(path.join(work, file), "[]");
    }
    for (const { folder, lines } of tree.ignores) {
        fs.mkdirSync(path.join(work, folder), { recursive: true });
        fs.appendFileSync(path.join(work, folder, ".gitignore"), `${lines.join("\n")}\n`);
    }
    fs.mkdirSync(path.join(work, ".git", "info"), { recursive: true });
    fs.writeFileSync(path.join(work, ".git", "info", "exclude"), `${tree.infoExclude.join("\n")}\n`);
    return work;
}

/** git's own list of the annotation files it does not ignore, `/`-separated and sorted. */
export function gitList(work: string): string[] {
    const out = execFileSync("git", ["ls-files", "--others", "--exclude-standard", "-z"], {
        cwd: work,
        env: gitEnv(path.dirname(work)),
        encoding: "utf8",
    });
    return out
        .split("\0")
        .filter((file) => file !== "" && isAnnotationFileName(path.posix.basename(file)))
        .sort();
}
