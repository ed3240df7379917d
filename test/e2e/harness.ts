// Shared by the in-host runner (index.ts) and the suites: where the driver (scripts/e2e.mjs) expects
// results and screenshot requests, and small helpers for waiting on an asynchronous editor.
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";

export const repoRoot = path.resolve(__dirname, "..", "..", "..");

export interface ControlConfig {
    /** Where index.ts writes the mocha results (JSON, rewritten after every test). */
    resultsFile: string;
    /** True when a driver can take screenshots (the code-server route); false under test-electron. */
    screenshots: boolean;
    /** Mocha --grep, to run a subset. */
    grep?: string;
    /** The display language the window was opened in (SOURCECHECK_E2E_LOCALE): run test/e2e/<locale>/ only. */
    locale?: string;
}

export function controlDir(): string {
    return process.env.SOURCECHECK_E2E_CONTROL ?? path.join(repoRoot, "test-results", "e2e-control");
}

export function readControl(): ControlConfig {
    const file = path.join(controlDir(), "config.json");
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as ControlConfig;
    return { resultsFile: path.join(controlDir(), "results.json"), screenshots: false };
}

export function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `probe` until it returns a value that `accept` takes (default: anything but undefined),
 * or fails with `what` and the last value seen. Editors are asynchronous: the language server
 * answers later, so every assertion on its output polls.
 */
export async function waitFor<T>(
    what: string,
    probe: () => T | PromiseLike<T>,
    accept: (v: T) => boolean = (v) => v !== undefined && v !== null,
    timeoutMs = 10_000,
): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: T | undefined;
    let lastError: unknown;
    for (;;) {
        try {
            last = await probe();
            lastError = undefined;
            if (accept(last)) return last;
        } catch (e) {
            lastError = e;
        }
        if (Date.now() > deadline) {
            const seen = lastError !== undefined ? `error ${String(lastError)}` : `last value ${describe(last)}`;
            throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; ${seen}`);
        }
        await sleep(200);
    }
}

function describe(v: unknown): string {
    try {
        const s = JSON.stringify(v);
        return s === undefined ? String(v) : s.length > 1500 ? `${s.slice(0, 1500)}...` : s;
    } catch {
        return String(v);
    }
}

export interface ShotOptions {
    /** Before the shot the driver waits (up to 10 s) until each text is on screen, inside `within` if given. */
    waitForText?: string[];
    /** A CSS selector: the texts are looked for in this element, and the shot is of it alone. */
    within?: string;
    /**
     * Titles of side-bar sections (view panes) to collapse for the shot, so the others get their
     * room; the driver expands them again afterwards. No VS Code command collapses a section.
     */
    collapse?: string[];
    /** A CSS selector: the shot of `within` ends just below the lowest element it matches (no empty space). */
    trimTo?: string;
}

export interface ShotResult {
    /** The texts of `waitForText` not on screen when the shot was taken (the page never drew them). */
    missing: string[];
}

/**
 * Asks the driver for a screenshot of the workbench as it is now, and waits until it is taken
 * (decorations die with the extension host, so the shot must happen while the suite is running).
 * A no-op under test-electron (undefined). Never fails a test itself: a missing screenshot is
 * reported by the driver, and what the page lacked comes back for the test to judge.
 */
export async function screenshot(
    name: string,
    settleMs = 1500,
    options: ShotOptions = {},
): Promise<ShotResult | undefined> {
    const config = readControl();
    if (!config.screenshots) return undefined;
    await sleep(settleMs);
    const dir = controlDir();
    const done = path.join(dir, `shot-${name}.done`);
    fs.writeFileSync(
        path.join(dir, `shot-${name}.request`),
        JSON.stringify({ requested: new Date().toISOString(), ...options }),
    );
    const deadline = Date.now() + 20_000;
    while (!fs.existsSync(done) && Date.now() < deadline) await sleep(100);
    try {
        const answer = JSON.parse(fs.readFileSync(done, "utf8")) as Partial<ShotResult>;
        return { missing: Array.isArray(answer.missing) ? answer.missing : [] };
    } catch {
        return { missing: options.waitForText ?? [] };
    }
}

/** The demo workspace copy the driver opened. */
export function workspaceRoot(): vscode.Uri {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error("no workspace folder is open: the driver must open the demo copy");
    return folder.uri;
}

export function wsUri(relative: string): vscode.Uri {
    return vscode.Uri.joinPath(workspaceRoot(), ...relative.split("/"));
}

export function extensionId(): string {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
    return `${pkg.publisher}.${pkg.name}`;
}

/** Activates the extension under test (as its activation events would) and returns it. */
export async function activateExtension(): Promise<vscode.Extension<unknown>> {
    const id = extensionId();
    const ext = vscode.extensions.getExtension(id);
    if (!ext) throw new Error(`extension ${id} is not loaded in this extension host`);
    await ext.activate();
    return ext;
}
