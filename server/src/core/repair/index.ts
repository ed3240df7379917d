/** The repair engine (docs/repair.md). */

export { fold } from "../nearMatch";
export {
    type AnnotationRepairs,
    type RemainingEntry,
    type RepairEntry,
    type RepairRole,
    repairChecked,
    repairCheckedSteps,
} from "./annotations";
export { applyCertainRepairs, type CertainRepairs } from "./certainEdits";
export { isLocked } from "./certainty";
export { Corroboration, type RepairSite, repairSite } from "./corroborate";
export { marginAbove, shiftCost } from "./cost";
export { explainRepair, type RepairExplanation, repairRef } from "./engine";
export { computeLineMap, followRef, type LineMap, lineMap } from "./follow";
export { findLockedText, LOCK_MARGIN, type LockedPlace } from "./locked";
export { onlyReading, READING_UNIQUE, READING_WINDOW, type Reading } from "./reading";
export type {
    DocumentMoves,
    EvidenceKind,
    LockedSpan,
    RepairCandidate,
    RepairDocuments,
    RepairOptions,
    RepairReason,
} from "./types";
