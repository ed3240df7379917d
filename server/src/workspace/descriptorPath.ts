/**
 * Where an opened file descriptor really is (docs/security.md, "Reads"): a path checked before the
 * open may have been swapped for a symlink (a folder on the way, or the file) by the time it is
 * opened, so the check that counts is of the descriptor. On Linux `/proc/self/fd/N` names the opened
 * file; elsewhere its real path now must be under the root and be the very file opened (device and
 * inode). Self-contained, `fsm` its only outside name: the corpus reader's worker thread runs it from
 * its source text (corpusReader.ts).
 */
import type * as fs from "node:fs";

export function descriptorUnder(fsm: typeof fs, fd: number, path: string, within: string): boolean {
    const inside = (candidate: string): boolean => {
        const separator = candidate.includes("/") ? "/" : "\\";
        const root = within.endsWith(separator) ? within : within + separator;
        return candidate === within || candidate.startsWith(root);
    };
    try {
        return inside(fsm.readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
        // No /proc: compared by real path and identity below.
    }
    try {
        const real = fsm.realpathSync(path);
        const now = fsm.statSync(real);
        const opened = fsm.fstatSync(fd);
        return inside(real) && now.dev === opened.dev && now.ino === opened.ino;
    } catch {
        return false;
    }
}
