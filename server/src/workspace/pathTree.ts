/**
 * A set of absolute file paths kept as a directory tree, so that what happens to a folder (a delete,
 * a rename, a listing) costs time in proportion to what is below that folder, not to the workspace.
 */
import * as nodePath from "node:path";

export class PathTree {
    /** Directory -> names of the entries below it that lead to a member (files or directories). */
    private readonly children = new Map<string, Set<string>>();
    private readonly members = new Set<string>();

    get size(): number {
        return this.members.size;
    }

    has(path: string): boolean {
        return this.members.has(path);
    }

    add(path: string): void {
        if (this.members.has(path)) return;
        this.members.add(path);
        let child = path;
        let parent = nodePath.dirname(child);
        while (parent !== child) {
            let names = this.children.get(parent);
            const known = names !== undefined;
            if (!names) {
                names = new Set();
                this.children.set(parent, names);
            }
            names.add(nodePath.basename(child));
            if (known) return; // the rest of the chain is already linked
            child = parent;
            parent = nodePath.dirname(child);
        }
    }

    /** Removes one member (what is below it, if anything, stays). */
    delete(path: string): void {
        if (!this.members.delete(path)) return;
        if (!this.children.has(path)) this.unlink(path);
    }

    /** Removes the path and everything below it; returns the members removed. */
    deleteUnder(path: string): string[] {
        const removed = this.under(path);
        for (const member of removed) this.members.delete(member);
        this.dropDirectory(path);
        this.unlink(path);
        return removed;
    }

    /** The members at or below the path (sorted). */
    under(path: string): string[] {
        const found: string[] = [];
        if (this.members.has(path)) found.push(path);
        const stack = [path];
        while (stack.length > 0) {
            const directory = stack.pop() as string;
            for (const name of this.children.get(directory) ?? []) {
                const full = nodePath.join(directory, name);
                if (this.members.has(full)) found.push(full);
                if (this.children.has(full)) stack.push(full);
            }
        }
        return found.sort();
    }

    values(): IterableIterator<string> {
        return this.members.values();
    }

    private dropDirectory(path: string): void {
        const stack = [path];
        while (stack.length > 0) {
            const directory = stack.pop() as string;
            for (const name of this.children.get(directory) ?? []) stack.push(nodePath.join(directory, name));
            this.children.delete(directory);
        }
    }

    /** Unlinks the path from its parent, and parents left empty from theirs. */
    private unlink(path: string): void {
        let child = path;
        let parent = nodePath.dirname(child);
        while (parent !== child) {
            const names = this.children.get(parent);
            if (!names) return;
            names.delete(nodePath.basename(child));
            if (names.size > 0 || this.members.has(parent)) return;
            this.children.delete(parent);
            child = parent;
            parent = nodePath.dirname(child);
        }
    }
}
