/** What the web leg's tests share (docs/web.md, "Tested"): the fixture's config, waiting, screenshots. */
import * as vscode from "vscode";

/** The extension under test; the driver puts its config.json and demo.json in e2e-web/ inside it. */
export const EXTENSION = "sourcecheck.sourcecheck-vscode";
export const ROOT = vscode.Uri.parse("sourcecheck-mem:/demo");

export interface WebConfig {
    /** Where the results go: a `vscode-remote:` URI on the server's disk. */
    results: string;
    /** The driver's control folder, as a `vscode-remote:` URI: screenshot requests go there. */
    control: string;
}

/** A JSON file the driver wrote into e2e-web/ of the extension under test. */
export async function driverFile<T>(name: string): Promise<T> {
    const extension = vscode.extensions.getExtension(EXTENSION);
    if (!extension) throw new Error(`the extension ${EXTENSION} is not loaded in this extension host`);
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extension.extensionUri, "e2e-web", name));
    return JSON.parse(new TextDecoder().decode(bytes)) as T;
}

export function webConfig(): Promise<WebConfig> {
    return driverFile<WebConfig>("config.json");
}

export function wsUri(relative: string): vscode.Uri {
    return vscode.Uri.joinPath(ROOT, relative);
}

export function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until `done` holds of its value; fails with what it waited for (no time is asserted). */
export async function waitFor<T>(
    probe: () => T | PromiseLike<T>,
    done: (value: T) => boolean,
    what: string,
    limitMs = 45_000,
): Promise<T> {
    const until = Date.now() + limitMs;
    let value = await probe();
    while (!done(value)) {
        if (Date.now() > until) throw new Error(`waited in vain for ${what}; last seen: ${JSON.stringify(value)}`);
        await sleep(100);
        value = await probe();
    }
    return value;
}

export function assert(condition: unknown, message: string): asserts condition {
    if (!condition) throw new Error(message);
}

export function assertEqual<T>(actual: T, expected: T, what: string): void {
    const a = JSON.stringify(actual);
    const e = JSON.stringify(expected);
    if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

/** Asks the driver for a screenshot of the workbench and waits until it was taken. */
export async function screenshot(name: string): Promise<void> {
    const { control } = await webConfig();
    const request = vscode.Uri.parse(`${control}/shot-${name}.request`);
    const done = vscode.Uri.parse(`${control}/shot-${name}.done`);
    await vscode.workspace.fs.writeFile(request, new TextEncoder().encode("{}"));
    await waitFor(
        () =>
            vscode.workspace.fs.stat(done).then(
                () => true,
                () => false,
            ),
        (taken) => taken,
        `the screenshot ${name}`,
    );
}
