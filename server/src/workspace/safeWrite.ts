/**
 * The one way SourceCheck writes a file (docs/security.md, "Writes"): every `-o`, every in-place
 * rewrite (`repair --write`, the agent tools' repair), the evidence index. A whole file or nothing,
 * and never over something that is not an ordinary file:
 *
 * - the target must be a regular file or missing: a directory, FIFO, socket or device is refused
 *   (renaming over `/dev/null` would replace the device); a symlink is refused unless the caller
 *   follows symlinks, and then the link's target is what is checked and replaced;
 * - a target that is one of the command's inputs (same device and inode) is refused;
 * - a read-only target (no write bit) is refused, even for root;
 * - the new file keeps the old one's mode and owner, and its UTF-8 BOM when it had one;
 * - the temp file is created and renamed through a handle on the opened directory
 *   (`/proc/self/fd/N/…` on Linux), so a folder swapped for a symlink meanwhile cannot redirect the
 *   write; elsewhere the directory's device and inode are checked again just before the rename;
 * - for an in-place rewrite, the file must still be what was read (size, mtime, inode and a SHA-256
 *   of the bytes), checked just before the rename: a change by someone else is refused, not lost;
 * - the replaced file is given a second, temporary name before the rename and held open through it,
 *   then compared after the rename with what it was just before: an in-place rewrite (an editor's
 *   `open(O_TRUNC)` + `write`) or a hard link made meanwhile puts that very file back, by a rename,
 *   and refuses the write (`changed`, `hard-link`): their bytes are never read and copied, so a read
 *   between their truncate and their write cannot lose them (replaceExisting);
 * - a file with more than one name (hard links) is refused: a rename would split it;
 * - the temp file is named `.NAME.sourcecheck-PID-RANDOM.tmp` (a long NAME shortened, with a hash of
 *   it: tempPrefix); one left by a process that is gone
 *   (killed mid-write) is removed when the next write to the same target starts.
 */
import * as fs from "node:fs";
import * as nodePath from "node:path";
import { statOrUndefined } from "./fileStat";
import { isInside } from "./pathSafety";
import { sha256OfBytes } from "./sha256";

/** What a reader saw of a file, to be compared just before it is replaced. */
export interface FileSnapshot {
    dev: number;
    ino: number;
    size: number;
    mtimeMs: number;
    sha256: string;
    /** The bytes started with a UTF-8 byte order mark. */
    bom: boolean;
}

export type SafeWriteCode =
    | "not-regular"
    | "symlink"
    | "same-as-input"
    | "read-only"
    | "changed"
    | "hard-link"
    | "directory-changed"
    | "io-error";

/** A refusal or failure to write, with a stable code and a clause about the target. */
export class SafeWriteError extends Error {
    constructor(
        readonly code: SafeWriteCode,
        message: string,
    ) {
        super(message);
    }
}

export interface SafeWriteOptions {
    /** Replace a symlink's target instead of refusing the symlink (`--follow-symlinks`). */
    followSymlinks?: boolean;
    /** Files the command read: the target may be none of them. */
    inputs?: readonly string[];
    /** For an in-place rewrite: the file as it was read; the write is refused if it changed since. */
    expected?: FileSnapshot;
    /** Mode of a new file (before the umask); an existing file keeps its own. Default 0o666. */
    newFileMode?: number;
    /** Flush the data before the rename (default true; the evidence index, a cache, skips it). */
    fsync?: boolean;
    /** Create missing parent folders (the evidence index's cache folder). */
    makeDirectory?: boolean;
    /** A folder (real path) the written file must stay under, checked on the opened directory. */
    within?: string;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The snapshot of bytes just read through an open descriptor's stats. */
export function snapshotOf(stats: fs.Stats, bytes: Uint8Array): FileSnapshot {
    return {
        dev: stats.dev,
        ino: stats.ino,
        size: stats.size,
        mtimeMs: stats.mtimeMs,
        sha256: sha256OfBytes(bytes),
        bom: bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf,
    };
}

/**
 * Bytes to write, or a producer that hands them over in pieces (the evidence index, written in
 * one-megabyte pieces, is never copied whole into one buffer); a producer's bytes are written as given.
 */
export type WriteContent = string | Uint8Array | ((write: (bytes: Uint8Array) => void) => void);

/** Write `content` to `target` whole or not at all, with every check above; throws SafeWriteError. */
/**
 * A write contained in `root` (the agent tools' writes, MCP and the editor alike): `writeFileSafely`
 * with `within` the root's real path, taken now, so a folder on the way swapped for a symlink during
 * the call cannot lead the write outside (docs/security.md, "Agents").
 */
export function writeFileWithinRoot(
    root: string,
    target: string,
    content: WriteContent,
    options: Omit<SafeWriteOptions, "within"> = {},
): void {
    let within: string;
    try {
        within = fs.realpathSync(root);
    } catch (error) {
        throw new SafeWriteError(
            "io-error",
            `cannot be written: its root cannot be read (${(error as Error).message})`,
        );
    }
    writeFileSafely(target, content, { ...options, within });
}

export function writeFileSafely(target: string, content: WriteContent, options: SafeWriteOptions = {}): void {
    let path = nodePath.resolve(target);
    let existing = lstatOrUndefined(path);
    if (existing?.isSymbolicLink()) {
        if (!options.followSymlinks) {
            throw new SafeWriteError(
                "symlink",
                "is a symbolic link (give --follow-symlinks to write to the file it points to)",
            );
        }
        try {
            path = fs.realpathSync(path);
        } catch {
            throw new SafeWriteError("symlink", "is a symbolic link to nothing (dangling or a loop)");
        }
        existing = lstatOrUndefined(path);
    }
    if (existing) refuseUnlessWritableFile(existing);
    if (options.expected && !existing)
        throw new SafeWriteError("changed", "was deleted since it was read; nothing written");
    // Size, time and inode now; the bytes' hash is compared on the held file just before the rename.
    if (existing && options.expected && !sameStats(existing, options.expected)) throw changedSinceRead();
    for (const input of options.inputs ?? []) {
        const stats = statOrUndefined(input);
        if (stats && existing && stats.dev === existing.dev && stats.ino === existing.ino) {
            throw new SafeWriteError("same-as-input", "is also an input of this command; it would be overwritten");
        }
    }

    let bytes: Buffer | undefined;
    if (typeof content !== "function") {
        // A view of given bytes, not a copy (a 100 MB lock is written as it was read: lockCommand.ts).
        bytes =
            typeof content === "string"
                ? Buffer.from(content, "utf8")
                : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
        if (options.expected?.bom && !startsWithBom(bytes)) bytes = Buffer.concat([UTF8_BOM, bytes]);
    }

    const directory = nodePath.dirname(path);
    if (options.makeDirectory) fs.mkdirSync(directory, { recursive: true });
    const name = nodePath.basename(path);
    let dirFd: number;
    try {
        dirFd = fs.openSync(directory, fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0));
    } catch (error) {
        throw ioError(error);
    }
    const dirStats = fs.fstatSync(dirFd);
    // Names inside the opened directory, wherever its path now leads (Linux); else the path itself.
    const viaHandle = handlePrefix(dirFd);
    const inDirectory = (entry: string) => (viaHandle ? `${viaHandle}/${entry}` : nodePath.join(directory, entry));
    let temp: OurTemp | undefined;
    try {
        if (options.within !== undefined && !openedInside(dirFd, directory, options.within)) {
            throw new SafeWriteError(
                "directory-changed",
                "is in a folder that now leads outside the root; nothing written",
            );
        }
        // Before the names are counted: a name left by a killed write (its held name) is one of these.
        removeStaleTemps(inDirectory, name);
        if (existing) refuseHardLinked(lstatOrUndefined(inDirectory(name)) ?? existing);
        temp = writeTemp(inDirectory, name, existing, options, bytes ?? content);

        // Last checks, as close to the rename as a path API allows.
        if (!viaHandle) {
            const now = statOrUndefined(directory);
            if (!now || now.dev !== dirStats.dev || now.ino !== dirStats.ino) {
                throw new SafeWriteError(
                    "directory-changed",
                    "is in a folder that was moved or replaced while writing",
                );
            }
        }
        if (existing) {
            replaceExisting({ inDirectory, name, temp, existing, expected: options.expected, bytes });
        } else {
            if (lstatOrUndefined(inDirectory(name))) {
                throw new SafeWriteError("changed", "was created by someone else while writing; nothing written");
            }
            fs.renameSync(inDirectory(temp.name), inDirectory(name));
        }
        temp.renamed = true;
        if (options.fsync !== false) {
            try {
                fs.fsyncSync(dirFd);
            } catch {
                // Some file systems cannot flush a directory; the rename itself is done.
            }
        }
    } catch (error) {
        if (temp && !temp.renamed) fs.rmSync(inDirectory(temp.name), { force: true });
        throw error instanceof SafeWriteError ? error : ioError(error);
    } finally {
        if (temp) fs.closeSync(temp.fd);
        fs.closeSync(dirFd);
    }
}

/** Our temp file: its name, an open descriptor on it (read and write), and its state once written. */
interface OurTemp {
    name: string;
    fd: number;
    written: fs.Stats;
    /** Renamed into the target's place (or put back over): not ours to remove any more. */
    renamed: boolean;
}

/** Create the temp file beside the target, with the old file's owner and mode, and write it whole. */
function writeTemp(
    inDirectory: (entry: string) => string,
    name: string,
    existing: fs.Stats | undefined,
    options: SafeWriteOptions,
    content: Uint8Array | WriteContent,
): OurTemp {
    const tempName = `${tempPrefix(name)}${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
    const mode = existing ? existing.mode & 0o7777 : (options.newFileMode ?? 0o666);
    const fd = fs.openSync(
        inDirectory(tempName),
        fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0),
        existing ? 0o600 : mode,
    );
    try {
        if (existing) {
            // Keep the owner first (chown may clear set-id bits), then the exact mode (not the umask's).
            const written = fs.fstatSync(fd);
            if (written.uid !== existing.uid || written.gid !== existing.gid) {
                try {
                    fs.fchownSync(fd, existing.uid, existing.gid);
                } catch {
                    throw new SafeWriteError(
                        "io-error",
                        "belongs to another user, and the rewrite could not keep its owner",
                    );
                }
            }
            fs.fchmodSync(fd, mode);
        }
        const writeAll = (piece: Uint8Array) => {
            for (let offset = 0; offset < piece.length; )
                offset += fs.writeSync(fd, piece, offset, piece.length - offset);
        };
        if (typeof content === "function") content(writeAll);
        else writeAll(typeof content === "string" ? Buffer.from(content, "utf8") : content);
        if (options.fsync !== false) fs.fsyncSync(fd);
        return { name: tempName, fd, written: fs.fstatSync(fd), renamed: false };
    } catch (error) {
        fs.closeSync(fd);
        fs.rmSync(inDirectory(tempName), { force: true });
        throw error;
    }
}

interface Replacement {
    inDirectory: (entry: string) => string;
    name: string;
    temp: OurTemp;
    existing: fs.Stats;
    expected: FileSnapshot | undefined;
    /** Our bytes, when given whole (a producer's are not kept). */
    bytes: Buffer | undefined;
}

/**
 * Rename the temp file over an existing target, losing nothing to anyone writing it meanwhile.
 *
 * Before the rename the old file is given a second, temporary name (`link`, named as our temp files
 * are) and opened through it. So after the rename it is still a file in the folder, not an unlinked
 * inode: an editor that opened it before the rename (`open(O_TRUNC)` + `write`) writes into a file
 * that can be put back whole, by a rename, without reading its bytes (reading them could catch it
 * between its truncate and its write). Compared after the rename, against what it was just before:
 * - its size, modification time or (when these agree) content hash changed: an in-place rewrite
 *   during our write, put back and refused with `changed`;
 * - it has a name besides the temporary one: a hard link made during our write, put back with both
 *   names and refused with `hard-link` (our rename would have split it).
 * Where the file system has no hard links, the old file's bytes are put back once they are stable.
 */
function replaceExisting(replacement: Replacement): void {
    const { inDirectory, name, temp, existing, expected } = replacement;
    const held = holdOldFile(inDirectory, name);
    try {
        const before = fs.fstatSync(held.fd);
        if (before.dev !== existing.dev || before.ino !== existing.ino) {
            throw new SafeWriteError("changed", "was replaced by another file while writing; nothing written");
        }
        refuseHardLinked(before, held.name ? 2 : 1);
        if (expected) {
            if (expected.size === 0) settleEmpty(held.fd);
            if (!sameStats(fs.fstatSync(held.fd), expected)) throw changedSinceRead();
            // Same size and time can still hide an edit within the clock's resolution: compare the hash.
            if (sha256OfBytes(bytesFromStart(held.fd)) !== expected.sha256) throw changedSinceRead();
        }
        const current = lstatOrUndefined(inDirectory(name));
        if (!current || current.dev !== existing.dev || current.ino !== existing.ino) {
            throw new SafeWriteError("changed", "was replaced by another file while writing; nothing written");
        }
        fs.renameSync(inDirectory(temp.name), inDirectory(name));
        temp.renamed = true;
        const after = fs.fstatSync(held.fd);
        const linked = after.nlink > (held.name ? 1 : 0);
        const edited =
            expected !== undefined &&
            (!sameStats(after, expected) || sha256OfBytes(bytesFromStart(held.fd)) !== expected.sha256);
        if (linked || edited) {
            putBack(replacement, held, linked);
            return;
        }
        if (!held.name) return;
        // Our rename is done and the old file unchanged: drop its second name. From then on it has no
        // name, so a link to it fails; but a link that found it by the target's name before our
        // rename may have been waiting for the folder (the rename holds it) and been made since.
        fs.unlinkSync(inDirectory(held.name));
        held.name = undefined;
        // On Windows a name removed while open may count until the file is closed: not asked there.
        if (process.platform !== "win32" && fs.fstatSync(held.fd).nlink > 0) lateLink(replacement, held);
    } finally {
        fs.closeSync(held.fd);
        if (held.name) fs.rmSync(inDirectory(held.name), { force: true });
    }
}

/**
 * The old file gained a name after our rename (a link that looked it up before): found in the
 * folder, it is given a second name again and put back with both, and the write refused; a name
 * made in another folder cannot be found, and is said to hold the old text.
 */
function lateLink(replacement: Replacement, held: { fd: number; name?: string }): void {
    const { inDirectory, name } = replacement;
    const old = fs.fstatSync(held.fd);
    const prefix = tempPrefix(name);
    let entries: string[] = [];
    try {
        entries = fs.readdirSync(inDirectory("."));
    } catch {
        // Unreadable folder: no other name to find.
    }
    for (const entry of entries) {
        if (entry === name || entry.startsWith(prefix)) continue;
        const stats = lstatOrUndefined(inDirectory(entry));
        if (!stats || stats.dev !== old.dev || stats.ino !== old.ino) continue;
        const again = `${prefix}${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
        try {
            fs.linkSync(inDirectory(entry), inDirectory(again));
        } catch {
            continue;
        }
        held.name = again;
        putBack(replacement, held, true);
        return;
    }
    throw new SafeWriteError(
        "hard-link",
        "was given another name (a hard link) in another folder while it was being written: that name holds the old text, this one the new",
    );
}

/**
 * The old file, open for reading, through a second name when the file system allows one (then the
 * caller removes that name); only through its own name (no `name`) where it does not.
 */
function holdOldFile(inDirectory: (entry: string) => string, name: string): { fd: number; name?: string } {
    const held = `${tempPrefix(name)}${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
    let linked = true;
    try {
        fs.linkSync(inDirectory(name), inDirectory(held));
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") throw new SafeWriteError("changed", "was deleted while writing; nothing written");
        // No hard links here (FAT, some network shares, a hardened kernel): the fallback below.
        linked = false;
    }
    const flags = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
    try {
        return linked
            ? { fd: fs.openSync(inDirectory(held), flags), name: held }
            : { fd: fs.openSync(inDirectory(name), flags) };
    } catch {
        if (linked) fs.rmSync(inDirectory(held), { force: true });
        throw new SafeWriteError("changed", "was replaced by another file while writing; nothing written");
    }
}

/**
 * Undo our rename: the old file (rewritten in place, or given another name, while we wrote) goes
 * back in the target's place as the very file it is, so nothing written into it, then or later
 * through a descriptor opened before, is lost; then the write is refused. Our new file is replaced
 * only while it is exactly what we wrote: if someone already wrote into it or linked it, theirs is
 * newer, and it stays.
 */
function putBack(replacement: Replacement, held: { fd: number; name?: string }, linked: boolean): void {
    const { inDirectory, name, temp, existing, expected, bytes } = replacement;
    if (!held.name) {
        if (linked) {
            throw new SafeWriteError(
                "hard-link",
                "was given another name (a hard link) while it was being written, and this file system cannot keep the two together: the other name holds the old text",
            );
        }
        // No second name to rename back: the held file's bytes, once another writer has stopped (it
        // throws unless they came back to the bytes read, and then our write stands).
        keepOtherEdit(held.fd, expected as FileSnapshot, existing, inDirectory, name);
        return;
    }
    const ours = fs.fstatSync(temp.fd);
    const atName = lstatOrUndefined(inDirectory(name));
    const untouched =
        ours.nlink === 1 &&
        ours.size === temp.written.size &&
        ours.mtimeMs === temp.written.mtimeMs &&
        atName !== undefined &&
        atName.ino === ours.ino &&
        (bytes === undefined || bytesFromStart(temp.fd).equals(bytes));
    if (untouched) fs.renameSync(inDirectory(held.name as string), inDirectory(name));
    const what = linked
        ? "was given another name (a hard link) while it was being written"
        : "was changed by someone else while it was being written";
    const outcome = !untouched
        ? ", and written or linked again since: the newer file stays as it is, and nothing of this write is kept"
        : linked
          ? "; replacing it would split them: the file was put back with both names, and nothing of this write is kept"
          : "; their edit was put back (the very file they wrote into), and nothing of this write is kept";
    throw new SafeWriteError(linked ? "hard-link" : "changed", `${what}${outcome}`);
}

/**
 * How long an empty file must have stayed empty before a rewrite of what was read from it is trusted.
 * An editor writing in place truncates, then writes: read between the two, the file was empty, and
 * empty is a text that parses (an annotation file with no annotation yet). Our rewrite of it, renamed
 * in, would send their write into the replaced file, lost; so the rewrite waits until the truncate is
 * this old, and is refused if their bytes came meanwhile. Only empty files wait: a file cut after
 * some of its bytes no longer parses, and nothing is written from it. A second, not less: on a loaded
 * machine a writer can wait hundreds of milliseconds for the CPU between its truncate and its write
 * (at 200 ms the 10,000-round race lost one edit in one run of about ten under a load of 10).
 */
const EMPTY_SETTLE_MS = 1000;

/** Wait (at most EMPTY_SETTLE_MS) until the held empty file was last written EMPTY_SETTLE_MS ago, or is empty no more. */
function settleEmpty(held: number): void {
    for (let waited = 0; waited < EMPTY_SETTLE_MS; ) {
        const stats = fs.fstatSync(held);
        const age = Date.now() - stats.mtimeMs;
        if (stats.size !== 0 || age >= EMPTY_SETTLE_MS) return;
        const pause = Math.max(1, Math.min(EMPTY_SETTLE_MS - age, 20));
        pauseFor(pause);
        waited += pause;
    }
}

/** A file with more names than `own` (hard links) is refused: renaming over one name would split them. */
function refuseHardLinked(stats: fs.Stats, own = 1): void {
    const names = stats.nlink - own + 1;
    if (names > 1) {
        throw new SafeWriteError(
            "hard-link",
            `has ${names} names (hard links); replacing it would split them, so nothing was written`,
        );
    }
}

function sameStats(stats: fs.Stats, expected: FileSnapshot): boolean {
    return (
        stats.dev === expected.dev &&
        stats.ino === expected.ino &&
        stats.size === expected.size &&
        stats.mtimeMs === expected.mtimeMs
    );
}

function changedSinceRead(): SafeWriteError {
    return new SafeWriteError("changed", "was changed by someone else since it was read; nothing written");
}

/**
 * Temp files of a target start with this (the pid and a random part follow, then `.tmp`). A name too
 * long for that to fit in 255 bytes (a 225-character name could not be written) gives its start and
 * a hash of the whole instead: still one prefix per target, so stale temps are still found.
 */
function tempPrefix(name: string): string {
    const full = `.${name}.sourcecheck-`;
    if (Buffer.byteLength(full) <= MAX_TEMP_PREFIX_BYTES) return full;
    let start = "";
    for (const character of name) {
        if (Buffer.byteLength(start + character) > 120) break;
        start += character;
    }
    return `.${start}~${sha256OfBytes(Buffer.from(name, "utf8")).slice(0, 16)}.sourcecheck-`;
}

/** 255 bytes a name, less the pid, the random part and `.tmp` (at most 7 + 1 + 8 + 4). */
const MAX_TEMP_PREFIX_BYTES = 255 - 20;

/**
 * Remove the temp files of this target left by processes that are gone (a write killed midway leaves
 * one; docs/security.md, "Writes"). A temp of a process still running is its write in progress: kept.
 */
function removeStaleTemps(inDirectory: (entry: string) => string, name: string): void {
    const prefix = tempPrefix(name);
    let entries: string[];
    try {
        entries = fs.readdirSync(inDirectory("."));
    } catch {
        return;
    }
    for (const entry of entries) {
        if (!entry.startsWith(prefix) || !entry.endsWith(".tmp")) continue;
        const pid = Number(/^(\d+)-/.exec(entry.slice(prefix.length))?.[1]);
        if (!Number.isSafeInteger(pid) || pid === process.pid || isRunning(pid)) continue;
        try {
            if (fs.lstatSync(inDirectory(entry)).isFile()) fs.unlinkSync(inDirectory(entry));
        } catch {
            // Gone already, or not ours to remove: the write goes on.
        }
    }
}

/** Every byte of an open file, read from its start whatever its position (sized by its length now). */
function bytesFromStart(fd: number): Buffer {
    const chunks: Buffer[] = [];
    let chunk = Buffer.allocUnsafe(Math.min(fs.fstatSync(fd).size + 1, 1 << 20));
    for (let position = 0; ; ) {
        const read = fs.readSync(fd, chunk, 0, chunk.length, position);
        if (read === 0) break;
        chunks.push(chunk.subarray(0, read));
        position += read;
        if (read === chunk.length) chunk = Buffer.allocUnsafe(1 << 20);
        else chunk = chunk.subarray(read);
    }
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/**
 * The held file's bytes once another writer has stopped writing them: two reads a pause apart agree
 * on size, modification time (nanoseconds) and hash. An editor that writes in place truncates, then
 * writes: read between the two, its file was empty, and putting that back lost its edit (3 of 19,942
 * raced edits left the file empty, 7 reverted). An empty read waits longer, as a truncate's does.
 */
function stableBytes(held: number): Buffer {
    let before = heldState(held);
    for (let pause = 1; pause <= 128; pause *= 2) {
        pauseFor(pause);
        const after = heldState(held);
        const same = after.size === before.size && after.mtimeNs === before.mtimeNs && after.hash === before.hash;
        if (same && (after.bytes.length > 0 || pause >= 32)) return after.bytes;
        before = after;
    }
    return before.bytes;
}

function heldState(held: number): { bytes: Buffer; size: bigint; mtimeNs: bigint; hash: string } {
    const stats = fs.fstatSync(held, { bigint: true });
    const bytes = bytesFromStart(held);
    return { bytes, size: stats.size, mtimeNs: stats.mtimeNs, hash: sha256OfBytes(bytes) };
}

/** A synchronous pause (the writer is synchronous by design: one write, start to end). */
function pauseFor(milliseconds: number): void {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

function isRunning(pid: number): boolean {
    try {
        process.kill(pid, 0);
        return true;
    } catch (error) {
        return (error as NodeJS.ErrnoException).code === "EPERM";
    }
}

/**
 * After the rename: the replaced file (held open) must still hold the bytes that were read. If
 * another edit was written into it meanwhile, that edit is put back in the target's place (whole,
 * through a temp file and a rename, with the file's mode) and the write is refused.
 */
function keepOtherEdit(
    held: number,
    expected: FileSnapshot,
    existing: fs.Stats,
    inDirectory: (entry: string) => string,
    name: string,
): void {
    const theirs = stableBytes(held);
    if (sha256OfBytes(theirs) === expected.sha256) return;
    const restore = `${tempPrefix(name)}${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
    const fd = fs.openSync(inDirectory(restore), "wx", existing.mode & 0o7777);
    try {
        fs.writeFileSync(fd, theirs);
        try {
            fs.fchownSync(fd, existing.uid, existing.gid);
        } catch {
            // Not root: the file was ours to write, and is ours again.
        }
        fs.fchmodSync(fd, existing.mode & 0o7777);
        fs.fsyncSync(fd);
    } finally {
        fs.closeSync(fd);
    }
    fs.renameSync(inDirectory(restore), inDirectory(name));
    throw new SafeWriteError(
        "changed",
        "was changed by someone else while it was being written; their edit was put back and nothing of this write is kept",
    );
}

/** The user-facing sentence for a refusal: `cannot write out.html: it is a directory`. */
export function describeWriteError(shown: string, error: unknown): string {
    if (error instanceof SafeWriteError) return `cannot write ${shown}: it ${error.message}`;
    return `cannot write ${shown}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
}

function refuseUnlessWritableFile(stats: fs.Stats): void {
    if (stats.isDirectory()) throw new SafeWriteError("not-regular", "is a directory");
    if (!stats.isFile()) {
        const kind = stats.isFIFO()
            ? "a FIFO"
            : stats.isSocket()
              ? "a socket"
              : stats.isCharacterDevice() || stats.isBlockDevice()
                ? "a device"
                : "not a regular file";
        throw new SafeWriteError("not-regular", `is ${kind}, not a regular file`);
    }
    // Root may write anything; a file nobody may write stays as it is for root too.
    if ((stats.mode & 0o222) === 0) throw new SafeWriteError("read-only", "is read-only (no write permission)");
    const uid = process.getuid?.();
    if (uid !== undefined && uid !== 0) {
        const writable = stats.uid === uid ? (stats.mode & 0o200) !== 0 : isWritableByOthers(stats);
        if (!writable) throw new SafeWriteError("read-only", "is not writable by this user");
    }
}

function isWritableByOthers(stats: fs.Stats): boolean {
    const groups = process.getgroups?.() ?? [];
    if (groups.includes(stats.gid) || process.getgid?.() === stats.gid) return (stats.mode & 0o020) !== 0;
    return (stats.mode & 0o002) !== 0;
}

let procFdWorks: boolean | undefined;

/** `/proc/self/fd/N` when it leads to the opened directory (Linux), else undefined. */
function handlePrefix(dirFd: number): string | undefined {
    if (procFdWorks === false) return undefined;
    const prefix = `/proc/self/fd/${dirFd}`;
    try {
        const viaProc = fs.statSync(prefix);
        const opened = fs.fstatSync(dirFd);
        procFdWorks = viaProc.isDirectory() && viaProc.dev === opened.dev && viaProc.ino === opened.ino;
    } catch {
        procFdWorks = false;
    }
    return procFdWorks ? prefix : undefined;
}

/** The opened directory is under `root`: its path as the kernel knows it (Linux), else its real path now. */
function openedInside(dirFd: number, directory: string, root: string): boolean {
    let real: string;
    try {
        real = procFdWorks ? fs.readlinkSync(`/proc/self/fd/${dirFd}`) : fs.realpathSync(directory);
    } catch {
        return false;
    }
    return isInside(root, real);
}

function startsWithBom(bytes: Uint8Array): boolean {
    return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

function lstatOrUndefined(path: string): fs.Stats | undefined {
    try {
        return fs.lstatSync(path);
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") return undefined;
        if (code === "ENOTDIR") throw new SafeWriteError("not-regular", "is below something that is not a folder");
        throw ioError(error);
    }
}

function ioError(error: unknown): SafeWriteError {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EISDIR") return new SafeWriteError("not-regular", "is a directory");
    if (code === "ENOENT") return new SafeWriteError("io-error", "is in a folder that does not exist");
    return new SafeWriteError("io-error", `could not be written (${code ?? String(error)})`);
}
