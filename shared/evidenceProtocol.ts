/**
 * The language server request behind *Find Sources for Claim* (docs/evidence.md, "Editor"): types and
 * the method name only, compiled by both sides.
 */
import type { Ref } from "./refModel";

export const FIND_EVIDENCE = "sourcecheck/findEvidence";

export interface FindEvidenceParams {
    /** The annotation file whose claim is the query (its document root is the corpus). */
    annotationUri: string;
    /** The annotation whose claim is the query, counted from 1 (docs/contract.md, "Numbers"). */
    annotation: number;
    /** Corpus globs relative to the document root; defaults `**\/*.md`, `**\/*.markdown` minus node_modules. */
    include?: string[];
    exclude?: string[];
    /** Extra unsafe-source phrases. */
    unsafePatterns?: string[];
    /** Folder of the index file (the extension's workspace storage); default: the user's cache. */
    indexDir?: string;
    topK?: number;
    /** LSP work done progress: the server reports the files read and candidates checked under it. */
    workDoneToken?: string | number;
}

export interface EvidenceHitItem {
    /** Relative to the document root, so `ref` can be written into the annotation file as is. */
    path: string;
    startLine: number;
    endLine: number;
    score: number;
    headingPath: string[];
    ref: Ref | null;
    /** The text the ref cites. */
    refText: string;
    /** The chunk's lines. */
    text: string;
}

export type FindEvidenceResult =
    | { ok: true; query: string; hits: EvidenceHitItem[]; warnings: string[] }
    | { ok: false; message: string; cancelled?: true };
