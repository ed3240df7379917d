// The e2e runner's guard that suites leave the demo workspace's files on disk as they found them
// (an edit saved by mistake breaks every later suite far from its cause).
import * as fs from "node:fs";
import * as path from "node:path";

/** Every file under the workspace folder, by path relative to it, with its bytes. */
export type DemoFiles = Map<string, Buffer>;

export function readDemoFiles(root: string): DemoFiles {
    const files: DemoFiles = new Map();
    const walk = (dir: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) walk(full);
            else if (entry.isFile())
                files.set(path.relative(root, full).split(path.sep).join("/"), fs.readFileSync(full));
        }
    };
    walk(root);
    return files;
}

/**
 * The demo's files that differ from the original (changed or deleted) and did not already differ
 * the same way before the suite ran, so the suite that changed them is the one named; and the files
 * the suite left that the demo did not have.
 */
export function demoChanges(
    original: DemoFiles,
    before: DemoFiles,
    now: DemoFiles,
): { changed: string[]; added: string[] } {
    const same = (a: Buffer | undefined, b: Buffer | undefined) =>
        a === undefined || b === undefined ? a === b : a.equals(b);
    const changed: string[] = [];
    for (const [file, bytes] of original) {
        const current = now.get(file);
        if (same(current, bytes) || same(current, before.get(file))) continue;
        changed.push(current === undefined ? `${file} (deleted)` : `${file} (${firstDifference(bytes, current)})`);
    }
    const added = [...now.keys()].filter((file) => !original.has(file) && !before.has(file));
    return { changed, added };
}

/** Writes back every original file that differs now. */
export function restoreDemoFiles(root: string, original: DemoFiles, now: DemoFiles): void {
    for (const [file, bytes] of original) {
        if (now.get(file)?.equals(bytes)) continue;
        const full = path.join(root, ...file.split("/"));
        fs.mkdirSync(path.dirname(full), { recursive: true });
        fs.writeFileSync(full, bytes);
    }
}

/** Where two versions of a text file first differ, for the report: "line 3: "old" became "new"". */
export function firstDifference(before: Buffer, after: Buffer): string {
    const a = before.toString("utf8").split("\n");
    const b = after.toString("utf8").split("\n");
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (a[i] === b[i]) continue;
        const show = (line: string | undefined) => (line === undefined ? "nothing" : JSON.stringify(line.slice(0, 80)));
        return `line ${i + 1}: ${show(a[i])} became ${show(b[i])}`;
    }
    return "the same lines, other bytes";
}
