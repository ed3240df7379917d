/** The repair engine (docs/repair.md). */

export {
    type AnnotationRepairs,
    type RemainingEntry,
    type RepairEntry,
    type RepairRole,
    repairChecked,
} from "./annotations";
export { applyCertainRepairs, type CertainRepairs, spliceEdits } from "./certainEdits";
export { Corroboration, type RepairSite, repairSite } from "./corroborate";
export { marginAbove, repairRef, shiftCost } from "./engine";
export { computeLineMap, followRef, type LineMap, lineMap } from "./follow";
export { fold } from "./normalize";
export type { RepairCandidate, RepairDocuments, RepairOptions, RepairReason } from "./types";
