/**
 * The web leg's entry (extensionTestsPath; docs/web.md, "Tested"): runs web.test.ts with mocha's browser
 * build inside the web worker extension host, and writes the results, after each test, to the file the
 * driver (scripts/e2e-web.mjs) reads. The worker has no file system of its own: results go through
 * `vscode.workspace.fs` to the server's disk, at the URI the driver put in e2e-web/config.json. First it
 * registers the in-memory file system the workspace `sourcecheck-mem:/demo` lives on (memfs.ts).
 */
import * as vscode from "vscode";
import { registerMemoryFileSystem } from "./memfs";
import { driverFile, type WebConfig, webConfig } from "./webHarness";

/** Taken before mocha loads: its browser build brings a `process` shim of its own. */
const processType = typeof process;

interface TestResult {
    title: string;
    state: "passed" | "failed";
    durationMs: number;
    error?: string;
}

async function writeResults(config: WebConfig, results: object): Promise<void> {
    await vscode.workspace.fs.writeFile(
        vscode.Uri.parse(config.results),
        new TextEncoder().encode(JSON.stringify(results, null, 2)),
    );
}

export async function run(): Promise<void> {
    const config = await webConfig();
    const tests: TestResult[] = [];
    const results = {
        started: new Date().toISOString(),
        vscodeVersion: vscode.version,
        uiKind: vscode.UIKind[vscode.env.uiKind],
        remoteName: vscode.env.remoteName,
        processType,
        done: false,
        tests,
        passed: 0,
        failed: 0,
        fatal: undefined as string | undefined,
    };
    let writing = writeResults(config, results);
    const save = () => {
        writing = writing.then(() => writeResults(config, results));
    };
    try {
        // Before SourceCheck starts: its server's first scan reads the workspace through this provider.
        registerMemoryFileSystem(await driverFile<Record<string, string>>("demo.json"));
        (globalThis as { sourcecheckProcessType?: string }).sourcecheckProcessType = processType;
        require("mocha/mocha.js");
        const mocha = (globalThis as unknown as { mocha: BrowserMocha }).mocha;
        const Mocha = (globalThis as unknown as { Mocha: { reporters: { Base: unknown } } }).Mocha;
        mocha.setup({ ui: "bdd", timeout: 60_000, reporter: Mocha.reporters.Base, color: false });
        require("./web.test");
        await new Promise<void>((resolve) => {
            const runner = mocha.run(() => resolve());
            runner.on("pass", (test: MochaTest) => {
                tests.push({ title: test.fullTitle(), state: "passed", durationMs: test.duration ?? 0 });
                results.passed++;
                save();
            });
            runner.on("fail", (test: MochaTest, error: Error) => {
                tests.push({
                    title: test.fullTitle(),
                    state: "failed",
                    durationMs: test.duration ?? 0,
                    error: error?.stack ?? String(error),
                });
                results.failed++;
                save();
            });
        });
    } catch (error) {
        results.fatal = error instanceof Error ? (error.stack ?? error.message) : String(error);
    }
    results.done = true;
    save();
    await writing;
}

interface MochaTest {
    fullTitle(): string;
    duration?: number;
}

interface BrowserMocha {
    setup(options: object): void;
    run(done: () => void): { on(event: string, listener: (...args: never[]) => void): void };
}
