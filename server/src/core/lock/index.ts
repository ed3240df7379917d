/** Locks: what each ref meant when it was locked, and drift from it (docs/lock.md). Pure. */

export { basisAgreesWithEntries, changedDocuments, RecordingLookup } from "./basis";
export { LockComparison, type LockComparisonOptions, type LockCounts, UnchangedLock } from "./compare";
export { driftOf, quoteForPeople, type TextChangedWarning, unlockedMessage } from "./drift";
export { baseKey, entryKey, isLockedText, lockEntry, lockedTextOf, refIdentity } from "./entry";
export {
    basisOfHeader,
    conformsToLockEntry,
    ENTRIES_LINE,
    isLockFileName,
    lockEntryProblem,
    lockFileNameFor,
    type ParsedLock,
    parseLock,
    serializeEntries,
    serializeLock,
} from "./file";
export {
    type LockedText,
    lockAnnotationText,
    lockAnnotationTextSteps,
    type NotLocked,
    refCountIfAllResolve,
} from "./lockText";
export { type LockMatch, type LockSite, type MatchKind, matchLock, matchRefs } from "./match";
export { type RefLockStatus, type RelockOptions, type RelockResult, relock, sortEntries } from "./relock";
export { annotationLockSites, type LockRefSite, lockSites, siteLabel } from "./sites";
export {
    CONTEXT_LENGTH,
    END_LENGTH,
    LOCK_VERSION,
    type LockBasis,
    type LockEntry,
    type LockError,
    type LockErrorCode,
    type LockFile,
    type Sha256,
    TEXT_CAP,
} from "./types";
export { type DocumentAtBasis, documentsAtBasis, type EntryDoubt, entryDoubt, trustedEntries } from "./verify";
export { type DiffPiece, MAX_DIFFED, wordDiff, wordDiffLine } from "./wordDiff";
