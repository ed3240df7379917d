/**
 * Where a ref sits, as every front end reports it (docs/contract.md, "Numbers"): `annotation` and
 * `source` count from 1, `role` is "claim" or "source"; 0-based positions only inside `pointer`.
 */
import { annotationLabel, refRoleOf, sourceLabel } from "../../../shared/numbering";

export type RefPlace = { annotation: number; role: "claim" } | { annotation: number; role: "source"; source: number };

/** The place of a ref from the core's 0-based annotation index and role (`claim` or a source index). */
export function refPlace(annotationIndex: number, role: "claim" | number): RefPlace {
    return { annotation: annotationIndex + 1, ...refRoleOf(role) };
}

/** "annotation 3, claim" or "annotation 3, source 2". */
export function placeLabel(place: RefPlace): string {
    const ref = place.role === "claim" ? "claim" : sourceLabel(place.source - 1);
    return `${annotationLabel(place.annotation - 1)}, ${ref}`;
}
