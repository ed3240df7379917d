/**
 * The chunk table of an evidence index (docs/evidence.md, "Index"): one row of Int32 fields per chunk
 * slot, shared by the index (evidence/index.ts), its scoring (bm25.ts) and its file (codec.ts).
 */
export const DOC = 0;
export const START = 1;
export const END = 2;
export const LENGTH = 3;
export const HEADING = 4;
export const FP_HI = 5;
export const FP_LO = 6;
/** FLAG_UNSAFE in the low byte, the chunk's rank among identical chunks of its document above it. */
export const FLAGS = 7;
export const FIELDS = 8;
export const FLAG_UNSAFE = 1;
