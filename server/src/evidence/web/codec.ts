/**
 * The browser's twin of evidence/codec.ts (docs/web.md): in a web worker the evidence index lives in
 * memory only (there is no cache folder to keep a file in), so the index file is never written or read
 * there and its codec (node:zlib's CRC-32, Buffer) is left out of the bundle. Reaching it is a bug.
 */
import type { IndexFile, IndexImage, ReadImage } from "../codec";

export type { IndexFile, IndexImage, OpenedFile, ReadImage, StoredPostings } from "../codec";

function noIndexFile(): never {
    throw new Error("sourcecheck: the evidence index file is not used in VS Code for the Web (docs/web.md)");
}

export function writeIndex(_image: IndexImage, _write: (bytes: Uint8Array) => void): void {
    noIndexFile();
}

export function readIndex(_bytes: Uint8Array): ReadImage {
    return noIndexFile();
}

export function readIndexFile(_open: IndexFile): ReadImage {
    return noIndexFile();
}
