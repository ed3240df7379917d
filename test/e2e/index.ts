// Entry point the extension host calls (extensionTestsPath): runs every out/test/e2e/*.test.js with
// mocha and writes the results to the file the driver reads, after each test, because the extension
// host's console does not reach the driver on the code-server route.
import * as fs from "node:fs";
import * as path from "node:path";
import Mocha from "mocha";
import * as vscode from "vscode";
import { type DemoFiles, demoChanges, readDemoFiles, restoreDemoFiles } from "./demoGuard";
import { readControl } from "./harness";

interface TestResult {
    title: string;
    state: "passed" | "failed";
    durationMs: number;
    error?: string;
}

interface Results {
    started: string;
    vscodeVersion: string;
    uiKind: string;
    remoteName: string | undefined;
    done: boolean;
    tests: TestResult[];
    passed: number;
    failed: number;
    fatal?: string;
}

const ORDER = [
    "activation",
    "diagnostics",
    "navigation",
    "decorations",
    "completion",
    "quickfix",
    "liveEdits",
    "authoring",
];

export async function run(): Promise<void> {
    const config = readControl();
    const results: Results = {
        started: new Date().toISOString(),
        vscodeVersion: vscode.version,
        uiKind: vscode.UIKind[vscode.env.uiKind],
        remoteName: vscode.env.remoteName,
        done: false,
        tests: [],
        passed: 0,
        failed: 0,
    };
    const write = () => {
        const tmp = `${config.resultsFile}.tmp`;
        fs.mkdirSync(path.dirname(config.resultsFile), { recursive: true });
        fs.writeFileSync(tmp, JSON.stringify(results, null, 2));
        fs.renameSync(tmp, config.resultsFile);
    };
    write();

    try {
        const mocha = new Mocha({ ui: "bdd", timeout: 30_000, color: false, grep: config.grep });
        // Silent base reporter: results travel through the file; console.log copies help when the
        // console is visible (test-electron prints it, Chromium's devtools show it).
        mocha.reporter(Mocha.reporters.Base);
        // Read-only suites first (their screenshots show a pristine window), editing ones last; a suite
        // not listed runs after these, alphabetically.
        const rank = (f: string) => {
            const i = ORDER.indexOf(f.replace(/\.test\.js$/, ""));
            return i === -1 ? ORDER.length : i;
        };
        // A run in another display language (SOURCECHECK_E2E_LOCALE) runs that locale's folder only.
        const dir = config.locale ? path.join(__dirname, config.locale) : __dirname;
        if (config.locale && vscode.env.language !== config.locale)
            throw new Error(`the window's display language is ${vscode.env.language}, not ${config.locale}`);
        const files = (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
            .filter((f) => f.endsWith(".test.js"))
            .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
        if (files.length === 0) throw new Error(`no *.test.js files in ${dir}`);
        for (const f of files) mocha.addFile(path.join(dir, f));

        // Every suite must leave the demo's files on disk byte for byte as it found them: a suite that
        // does not fails here by name (and the files are put back so later suites still start clean).
        const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
        if (!root) throw new Error("the e2e workspace has no folder");
        const original = readDemoFiles(root);
        let before: DemoFiles = original;

        await new Promise<void>((resolve) => {
            const runner = mocha.run(() => resolve());
            runner.on("suite end", (suite) => {
                if (!suite.parent?.root) return;
                const now = readDemoFiles(root);
                const changes = demoChanges(original, before, now);
                before = now;
                if (changes.added.length > 0)
                    console.log(`  note ${suite.title}: left new files ${changes.added.join(", ")}`);
                if (changes.changed.length === 0) return;
                const error = `"${suite.title}" left the demo's files changed on disk: ${changes.changed.join(", ")}`;
                results.tests.push({
                    title: `${suite.title} leaves the demo's files as it found them`,
                    state: "failed",
                    durationMs: 0,
                    error,
                });
                results.failed++;
                console.log(`  FAIL ${error}`);
                restoreDemoFiles(root, original, now);
                before = readDemoFiles(root);
                write();
            });
            runner.on("pass", (test) => {
                results.tests.push({ title: test.fullTitle(), state: "passed", durationMs: test.duration ?? 0 });
                results.passed++;
                console.log(`  ok   ${test.fullTitle()}`);
                write();
            });
            runner.on("fail", (test, err: Error) => {
                const error = `${err?.message ?? String(err)}${err?.stack ? `\n${err.stack}` : ""}`;
                results.tests.push({ title: test.fullTitle(), state: "failed", durationMs: test.duration ?? 0, error });
                results.failed++;
                console.log(`  FAIL ${test.fullTitle()}\n${error}`);
                write();
            });
            runner.on("pending", (test) => {
                // The project allows no skipped tests: a pending test is a failure.
                results.tests.push({
                    title: test.fullTitle(),
                    state: "failed",
                    durationMs: 0,
                    error: "test is pending/skipped; skipped tests are not allowed",
                });
                results.failed++;
                write();
            });
        });
    } catch (e) {
        results.fatal = e instanceof Error ? `${e.message}\n${e.stack}` : String(e);
        results.failed++;
    }
    results.done = true;
    write();
    if (results.failed > 0) throw new Error(`${results.failed} e2e test(s) failed`);
}
