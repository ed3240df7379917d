/** The refs of a checked file as lock sites, each with where it is in the file (for messages). */

import { annotationLabel, sourceLabel } from "../../../../shared/numbering";
import type { CheckedAnnotation } from "../check";
import type { LockSite } from "./match";

export interface LockRefSite extends LockSite {
    annotation: number;
    role: "claim" | number;
    /** JSON pointer of the ref object. */
    pointer: string;
}

/** Every ref the check could read whole, claim before sources, in file order. */
export function lockSites(annotations: readonly CheckedAnnotation[]): LockRefSite[] {
    const sites: LockRefSite[] = [];
    for (const checked of annotations) for (const site of annotationLockSites(checked)) sites.push(site);
    return sites;
}

/** The refs of one checked annotation the check could read whole, claim first. */
export function annotationLockSites(checked: CheckedAnnotation): LockRefSite[] {
    const sites: LockRefSite[] = [];
    if (checked.claim && checked.claimResolution) {
        sites.push({
            annotation: checked.index,
            role: "claim",
            pointer: `${checked.pointer}/claim`,
            ref: checked.claim,
            resolution: checked.claimResolution,
        });
    }
    checked.sources.forEach((source, role) => {
        if (source.ref && source.resolution) {
            sites.push({
                annotation: checked.index,
                role,
                pointer: source.pointer,
                ref: source.ref,
                resolution: source.resolution,
            });
        }
    });
    return sites;
}

/** "annotation 3, source 2" / "annotation 1, claim": counted from 1, for people. */
export function siteLabel(annotation: number, role: "claim" | number): string {
    return `${annotationLabel(annotation)}, ${role === "claim" ? "claim" : sourceLabel(role)}`;
}
