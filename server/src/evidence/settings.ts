/** How an evidence index chunks and filters (docs/evidence.md, "Index"): part of its file's key. */
import type { TokenizerName } from "./tokenizer";

export interface IndexSettings {
    maxChars: number;
    /** Extra unsafe-source phrases beside the defaults. */
    unsafePatterns: string[];
    /** Bigrams (the default, docs/evidence-internals.md "Tokenizer"), or `Intl.Segmenter` words for comparison. */
    tokenizer?: TokenizerName;
}
