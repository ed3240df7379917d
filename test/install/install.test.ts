/**
 * Installing SourceCheck the ways a user meets it (docs/install.md), each with the real tool: the npm
 * package `sourcecheck` packed, installed into a clean prefix and run; the repository's pre-commit
 * hook installed by pre-commit from PyPI (in a fresh virtualenv) with the system's Node and npm.
 * Network: the npm registry and PyPI only, as a user's install would; nothing is skipped when they
 * cannot be reached (the test fails).
 */
import * as assert from "node:assert/strict";
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { copyDemo, repoRoot } from "../protocol/harness";

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
    const r = spawnSync(command, args, {
        cwd,
        encoding: "utf8",
        env: { ...process.env, ...env },
        maxBuffer: 64 << 20,
    });
    if (r.error) throw r.error;
    return r;
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
    assert.equal(r.status, 0, `${what} exited with ${r.status}:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
    return r.stdout;
}

const tmp = (name: string) => fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), `sourcecheck-${name}-`));
const npmQuiet = ["--no-audit", "--no-fund", "--prefer-offline"];

/** The demo's broken refs, as `check` reports them (a problem line each). */
const PROBLEM_LINE = /^answer\.sourcecheck\.json:\d+:\d+: [a-z-]+: /m;

describe("install: the npm package sourcecheck", function () {
    this.timeout(600_000);
    let tarball: string;
    let tarFiles: string[];

    before(() => {
        const out = ok(run(process.execPath, ["scripts/npm-package.mjs", "--pack"], repoRoot), "npm-package.mjs");
        tarball = out.trim().split("\n").at(-1) ?? "";
        assert.ok(fs.existsSync(tarball), `no tarball at ${tarball}`);
        tarFiles = ok(run("tar", ["-tzf", tarball], repoRoot), "tar")
            .trim()
            .split("\n");
    });

    it("holds the built CLI, the library and its types, and nothing of the sources, tests or bench", () => {
        // The CLI and, beside it, a bundle per further command and the lazily loaded HTML reader.
        const bundles = ["dist/cli.js", "dist/citeCommand.js", "dist/mcpCommand.js", "dist/visibleText.js"];
        for (const file of ["bin/sourcecheck.js", ...bundles, "dist/index.js", "package.json"]) {
            assert.ok(tarFiles.includes(`package/${file}`), `${file} in the tarball`);
        }
        assert.ok(tarFiles.includes("package/dist/types/server/src/index.d.ts"), "the library's declarations");
        const stray = tarFiles.filter((f) =>
            /^package\/(test|bench|server|client|shared|examples|docs|scripts|node_modules|out)\/|\.map$|^package\/dist\/extension\.js$/.test(
                f,
            ),
        );
        assert.deepEqual(stray, []);
        const manifest = JSON.parse(ok(run("tar", ["-xzOf", tarball, "package/package.json"], repoRoot), "tar"));
        assert.equal(manifest.name, "sourcecheck");
        assert.equal(manifest.devDependencies, undefined);
        assert.equal(manifest.scripts, undefined, "no install or prepare script runs on the user's machine");
        // dist/ is self-contained: only the packages the declarations name are dependencies.
        assert.deepEqual(Object.keys(manifest.dependencies ?? {}), ["jsonc-parser"]);
    });

    it("installed globally into a clean prefix, `sourcecheck check` reports the demo's broken refs (exit 1)", () => {
        const prefix = tmp("npm-prefix");
        ok(run("npm", ["install", "-g", "--prefix", prefix, tarball, ...npmQuiet], prefix), "npm install -g");
        const bin = path.join(prefix, "bin", "sourcecheck");
        assert.ok(fs.existsSync(bin), "the bin is linked");
        const demo = copyDemo();
        const checked = run(bin, ["check", "answer.sourcecheck.json"], demo, { PATH: path.dirname(process.execPath) });
        assert.equal(checked.status, 1, checked.stderr);
        assert.match(checked.stdout, PROBLEM_LINE);
        assert.match(checked.stdout, /8 annotations: 4 valid, 4 invalid \(exit 1\)/);
        // A command of the registry (its own bundle, dist/mcpCommand.js, loaded when named) works too.
        const help = run(bin, ["mcp", "--help"], demo);
        assert.equal(help.status, 0, help.stderr);
    });

    it("imports as a library (require, import) and type-checks from TypeScript", () => {
        const project = tmp("npm-project");
        fs.writeFileSync(path.join(project, "package.json"), '{ "name": "consumer", "private": true }\n');
        ok(run("npm", ["install", tarball, ...npmQuiet], project), "npm install");
        const program = `const session = buildSession([{ path: "a.txt", content: "The sky is blue." }]);
const report = validateAnnotations(session, [{
    claim: { path: "a.txt", start: { line: 1, str: "sky" }, end: { line: 1, str: "blue." } },
    sources: [{ path: "a.txt", start: { line: 1, str: "The" }, end: { line: 1, str: "blue." }, polarity: "supports", confidence: 0.9 }],
}]);
console.log(report.validCount, report.entries[0].claim.text);`;
        fs.writeFileSync(
            path.join(project, "main.cjs"),
            `const { buildSession, validateAnnotations } = require("sourcecheck");\n${program}\n`,
        );
        fs.writeFileSync(
            path.join(project, "main.mjs"),
            `import { buildSession, validateAnnotations } from "sourcecheck";\n${program}\n`,
        );
        for (const main of ["main.cjs", "main.mjs"]) {
            assert.equal(ok(run(process.execPath, [main], project), main), "1 sky is blue.\n");
        }
        fs.writeFileSync(
            path.join(project, "main.ts"),
            [
                'import { buildSession, type Report, validateAnnotations } from "sourcecheck";',
                'const session = buildSession([{ path: "a.txt", content: "The sky is blue." }]);',
                "const report: Report = validateAnnotations(session, []);",
                "export const valid: number = report.validCount;",
                "",
            ].join("\n"),
        );
        const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
        ok(
            run(
                process.execPath,
                [
                    tsc,
                    "--noEmit",
                    "--strict",
                    "--module",
                    "nodenext",
                    "--moduleResolution",
                    "nodenext",
                    "--types",
                    "node",
                    "--typeRoots",
                    path.join(repoRoot, "node_modules", "@types"),
                    "main.ts",
                ],
                project,
            ),
            "tsc on a consumer (declarations checked: no skipLibCheck)",
        );
    });
});

/** The working tree's files (tracked and new, not ignored) committed into a fresh repository: the hook repo. */
function hookRepository(): string {
    const dir = tmp("hook-repo");
    const files = ok(run("git", ["ls-files", "-z", "-co", "--exclude-standard"], repoRoot), "git ls-files")
        .split("\0")
        .filter((f) => f && fs.existsSync(path.join(repoRoot, f)));
    for (const file of files) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.copyFileSync(path.join(repoRoot, file), path.join(dir, file));
    }
    commitAll(dir);
    return dir;
}

function commitAll(dir: string): void {
    const git = (...args: string[]) =>
        ok(run("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], dir), `git ${args[0]}`);
    if (!fs.existsSync(path.join(dir, ".git"))) git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "files");
}

describe("install: the pre-commit hook", function () {
    this.timeout(1_200_000);
    let preCommit: string;
    let hookRepo: string;
    let target: string;
    let env: NodeJS.ProcessEnv;

    before(() => {
        const venv = tmp("pre-commit-venv");
        ok(run("python3", ["-m", "venv", venv], venv), "python3 -m venv");
        ok(
            run(path.join(venv, "bin", "pip"), ["install", "--quiet", "--retries", "1", "pre-commit"], venv),
            "pip install pre-commit",
        );
        preCommit = path.join(venv, "bin", "pre-commit");
        hookRepo = hookRepository();
        // A repository of annotation files: the demo (broken refs) and a clean file beside it.
        target = copyDemo();
        fs.writeFileSync(path.join(target, "clean.md"), "The sky is blue today.\n");
        fs.writeFileSync(
            path.join(target, "clean.sourcecheck.json"),
            `${JSON.stringify({
                annotations: [
                    {
                        claim: { path: "clean.md", start: { line: 1, str: "sky" }, end: { line: 1, str: "blue" } },
                        sources: [
                            {
                                path: "clean.md",
                                start: { line: 1, str: "The" },
                                end: { line: 1, str: "today." },
                                polarity: "supports",
                                confidence: 0.9,
                            },
                        ],
                    },
                ],
            })}\n`,
        );
        commitAll(target);
        // The installed environment is shared by both runs; the npm cache serves what it already has.
        env = { PRE_COMMIT_HOME: tmp("pre-commit-home"), npm_config_prefer_offline: "true" };
    });

    /**
     * `pre-commit try-repo` once: no retry. npm's `ENOTEMPTY` while installing the hook came from the
     * package's own `dependencies` unpacked beside it in parallel; it declares none now
     * (docs/install.md, "pre-commit"), so any failure is ours.
     */
    function tryRepo(args: string[]): SpawnSyncReturns<string> {
        return run(preCommit, ["try-repo", hookRepo, "sourcecheck", ...args], target, env);
    }

    it("installs with the system's Node and npm and fails on the demo's broken refs (exit 1)", () => {
        const r = tryRepo(["--all-files"]);
        assert.equal(r.status, 1, `${r.stdout.slice(-4000)}\n${r.stderr.slice(-2000)}`);
        assert.match(r.stdout, /sourcecheck\.+Failed/);
        assert.match(r.stdout, PROBLEM_LINE);
        assert.match(r.stdout, /boundary-ambiguous/);
    });

    it("passes on a clean annotation file", () => {
        const r = tryRepo(["--files", "clean.sourcecheck.json"]);
        assert.equal(r.status, 0, `${r.stdout.slice(-4000)}\n${r.stderr.slice(-2000)}`);
        assert.match(r.stdout, /sourcecheck\.+Passed/);
    });
});
