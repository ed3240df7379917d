/** Evidence search as a library (docs/evidence-internals.md, "Library"): the pure pieces, no file access. */
export { type Chunk, chunkMarkdown, DEFAULT_MAX_CHARS } from "./chunker";
export {
    type EvalCase,
    type EvalReport,
    evaluate,
    METRIC_GATES,
    type Metrics,
    parseCases,
} from "./evaluation";
export { EvidenceIndex, type IndexSettings } from "./index";
export {
    type LabelledScore,
    type LabelledSet,
    labelledSummary,
    parseLabelled,
    scoreLabelled,
} from "./labelled";
export {
    type ParaphrasedClaim,
    type ParaphraseScore,
    paraphraseSummary,
    parseParaphrases,
    scoreParaphrases,
} from "./paraphrases";
export {
    ABSTAIN_FLOOR,
    type CurrentText,
    type EvidenceHit,
    type EvidenceResult,
    hitsWithText,
    publicHit,
    type ShownHit,
    searchEvidence,
} from "./select";
export { forEachSegmentedTerm, forEachTerm, type TokenizerName, tokenize } from "./tokenizer";
export { DEFAULT_UNSAFE_PATTERNS, unsafeReason } from "./unsafe";
