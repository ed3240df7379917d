/**
 * The index "cited document -> the annotation files citing it" and back, by absolute path and file
 * URI: a change in one document re-checks only the refs into it, and a deleted folder finds the
 * cited paths below it.
 */
import { PathTree } from "./pathTree";

export class CitationGraph {
    /** Absolute cited path -> annotation file URIs citing it. */
    private readonly dependents = new Map<string, Set<string>>();
    /** Annotation file URI -> absolute cited path -> the ref paths naming it. */
    private readonly dependencies = new Map<string, Map<string, string[]>>();
    /** The keys of `dependents` as a tree, so a deleted folder finds the cited paths below it. */
    private readonly citedTree = new PathTree();

    /** What an annotation file cites now: absolute cited path -> the ref paths naming it. */
    set(uri: string, byAbsolute: Map<string, string[]>): void {
        this.delete(uri);
        for (const absolute of byAbsolute.keys()) {
            let set = this.dependents.get(absolute);
            if (!set) {
                set = new Set();
                this.dependents.set(absolute, set);
                this.citedTree.add(absolute);
            }
            set.add(uri);
        }
        this.dependencies.set(uri, byAbsolute);
    }

    delete(uri: string): void {
        const previous = this.dependencies.get(uri);
        if (!previous) return;
        for (const absolute of previous.keys()) {
            const set = this.dependents.get(absolute);
            set?.delete(uri);
            if (set && set.size === 0) {
                this.dependents.delete(absolute);
                this.citedTree.delete(absolute);
            }
        }
        this.dependencies.delete(uri);
    }

    /** The URIs of the annotation files citing this absolute path. */
    citing(absolutePath: string): string[] {
        const uris = this.dependents.get(absolutePath);
        return uris ? [...uris] : [];
    }

    /** The ref paths of an annotation file that name this absolute path. */
    refPaths(uri: string, absolutePath: string): string[] {
        return this.dependencies.get(uri)?.get(absolutePath) ?? [];
    }

    /** Every absolute path some annotation file cites. */
    citedPaths(): string[] {
        return [...this.dependents.keys()];
    }

    /** Cited absolute paths below a path: proportional to what is below. */
    citedUnder(absolutePath: string): string[] {
        return this.citedTree.under(absolutePath).filter((cited) => cited !== absolutePath);
    }
}
