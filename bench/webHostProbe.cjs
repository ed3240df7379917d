// The probe of the web-host bench row (bench/webHost.mjs), run as the extension-tests module inside the
// extension under test, in whichever extension host holds it (the web worker's or Node's): it opens the
// demo's annotation file, which activates SourceCheck (onLanguage), and times until the language server's
// diagnostics on it are at least as many as the refs the CLI finds broken. Plain CommonJS with `vscode` as its only import, so
// the same file runs in both hosts. Its result goes beside it, through vscode.workspace.fs.
const vscode = require("vscode");

const EXTENSION = "sourcecheck.sourcecheck-vscode";
const LIMIT_MS = 120_000;

function readJson(uri) {
    return vscode.workspace.fs.readFile(uri).then((bytes) => JSON.parse(new TextDecoder().decode(bytes)));
}

async function firstDiagnostics(extension, expected) {
    const folder = vscode.workspace.workspaceFolders[0].uri;
    const started = performance.now();
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, "answer.sourcecheck.json"));
    await vscode.window.showTextDocument(doc);
    let activatedMs;
    for (;;) {
        // When activate() returned (the language client started), for where the time goes.
        if (activatedMs === undefined && extension.isActive) activatedMs = performance.now() - started;
        const ours = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === "sourcecheck");
        if (ours.length >= expected) return { ms: performance.now() - started, activatedMs, diagnostics: ours.length };
        if (performance.now() - started > LIMIT_MS) throw new Error(`${ours.length} of ${expected} diagnostics`);
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
}

exports.run = async function run() {
    const extension = vscode.extensions.getExtension(EXTENSION);
    const here = vscode.Uri.joinPath(extension.extensionUri, "bench-probe");
    const result = { host: typeof process === "undefined" ? "web worker" : "node", activeBefore: extension.isActive };
    try {
        const { expected } = await readJson(vscode.Uri.joinPath(here, "config.json"));
        Object.assign(result, await firstDiagnostics(extension, expected));
    } catch (error) {
        result.error = String(error?.stack ?? error);
    }
    await vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(here, "result.json"),
        new TextEncoder().encode(JSON.stringify(result)),
    );
};
