/**
 * Which files of a corpus changed since last asked, from the operating system's file events
 * (docs/evidence-internals.md, "In a server"), so a long-lived server need not walk the corpus per query. On
 * Linux one non-recursive watch per folder (Node's recursive watch there watches every file, and
 * stats each one at start); elsewhere one recursive watch. Dot folders are never corpus files and
 * are not watched. Anything the watcher cannot vouch for (an error, an event without a name, a new
 * folder, too many folders) makes `take` answer undefined once: the caller walks the corpus then.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";

/** Folders watched at most (each an inotify watch on Linux); past it, the corpus is walked per query. */
const MAX_FOLDERS = 4096;

export class CorpusWatcher {
    private readonly watchers = new Map<string, fs.FSWatcher>();
    private changed = new Set<string>();
    private unsure = true;
    private closed = false;

    constructor(private readonly root: string) {
        try {
            if (process.platform === "linux") this.watchFolder(root);
            else
                this.add(
                    root,
                    fs.watch(root, { recursive: true, persistent: false }, (_event, name) => this.heard(root, name)),
                );
        } catch {
            this.close();
        }
    }

    /**
     * The corpus-relative paths changed since the last call, or undefined when the watcher cannot
     * vouch for them (just started, an error, a new folder): then everything may have changed.
     */
    take(): string[] | undefined {
        if (this.closed) return undefined;
        const changed = [...this.changed];
        this.changed = new Set();
        if (this.unsure) {
            this.unsure = false;
            return undefined;
        }
        return changed;
    }

    close(): void {
        this.closed = true;
        for (const watcher of this.watchers.values()) watcher.close();
        this.watchers.clear();
    }

    private add(folder: string, watcher: fs.FSWatcher): void {
        watcher.on("error", () => this.close());
        this.watchers.set(folder, watcher);
    }

    private watchFolder(folder: string): void {
        if (this.closed) return;
        if (this.watchers.size >= MAX_FOLDERS) {
            this.close();
            return;
        }
        this.add(
            folder,
            // Not persistent: a watcher never keeps the process alive once its work is done.
            fs.watch(folder, { persistent: false }, (_event, name) => this.heard(folder, name)),
        );
        for (const entry of fs.readdirSync(folder, { withFileTypes: true }))
            if (entry.isDirectory() && !entry.name.startsWith(".")) this.watchFolder(nodePath.join(folder, entry.name));
    }

    private heard(folder: string, name: string | Buffer | null): void {
        if (this.closed) return;
        if (name === null) {
            this.unsure = true;
            return;
        }
        const absolute = nodePath.join(folder, name.toString());
        const relative = nodePath.relative(this.root, absolute).split(nodePath.sep).join("/");
        if (relative.split("/").some((part) => part.startsWith("."))) return;
        this.changed.add(relative);
        if (process.platform === "linux") this.followFolder(absolute);
    }

    /**
     * A folder that appeared, went or was replaced: its files are new to the index or gone (a walk
     * answers for them), and it is watched afresh from now on.
     */
    private followFolder(absolute: string): void {
        const old = this.watchers.get(absolute);
        if (old) {
            old.close();
            this.watchers.delete(absolute);
            this.unsure = true;
        }
        try {
            if (fs.lstatSync(absolute).isDirectory()) {
                this.unsure = true;
                this.watchFolder(absolute);
            }
        } catch {
            // gone: the event's path stays in `changed`, and the walk drops what was under it
        }
    }
}
