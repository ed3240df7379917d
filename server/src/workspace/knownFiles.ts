/**
 * The files of the workspace folders as the last scan found them, for path completion without
 * touching the disk, and the scans under way (completion waits for the whole list).
 */
import * as nodePath from "node:path";
import { PathTree } from "./pathTree";

export class KnownFiles {
    /** Every file found by the last scan (absolute). */
    private files = new PathTree();
    /** `under` answers, until the set of known files changes. */
    private readonly listings = new Map<string, string[]>();
    private scanning: Promise<unknown> | undefined;
    private pendingScans = 0;

    get size(): number {
        return this.files.size;
    }

    has(absolutePath: string): boolean {
        return this.files.has(absolutePath);
    }

    /** Files under a root, relative to it (partial while a scan runs). */
    under(root: string): string[] {
        let listing = this.listings.get(root);
        if (!listing) {
            listing = this.files.under(root).map((path) => nodePath.relative(root, path).split(nodePath.sep).join("/"));
            this.listings.set(root, listing);
        }
        return listing;
    }

    add(absolutePath: string): void {
        this.files.add(absolutePath);
        this.listings.clear();
    }

    /** A file or a folder was deleted: costs time in proportion to what was below it. */
    deleteUnder(absolutePath: string): void {
        if (this.files.deleteUnder(absolutePath).length > 0) this.listings.clear();
    }

    /** What a finished scan found replaces what was known. */
    replace(files: PathTree): void {
        this.files = files;
        this.listings.clear();
    }

    /** A scan under way (or about to start): whenScanned waits for it. */
    track(scan: Promise<unknown>): void {
        this.scanning = scan;
        this.pendingScans++;
        void scan.then(
            () => this.pendingScans--,
            () => this.pendingScans--,
        );
    }

    /** True while a scan is under way. */
    scanPending(): boolean {
        return this.pendingScans > 0;
    }

    /** Resolves once the scan under way (if any) is over. */
    async whenScanned(): Promise<void> {
        await this.scanning?.catch(() => undefined);
    }
}
