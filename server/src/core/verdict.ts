/**
 * The verdict of an annotation (docs/verdicts.md), shared by the editor's decorations and view, the
 * HTML report and the CLI: `broken` if its claim or any source fails to resolve (or fails the
 * schema); else `supported` if every source supports, `refuted` if every source refutes,
 * `contested` if both occur.
 */
import type { ReportEntry } from "./check";

export type Verdict = "supported" | "refuted" | "contested" | "broken";

export const VERDICTS: readonly Verdict[] = ["supported", "contested", "refuted", "broken"];

/** The verdict of a report entry. */
export function verdictOf(entry: Pick<ReportEntry, "valid" | "claim" | "sources">): Verdict {
    if (!entry.valid || !entry.claim.valid || entry.sources.length === 0) return "broken";
    if (entry.sources.some((source) => !source.valid)) return "broken";
    return verdictOfPolarities(entry.sources.map((source) => source.polarity));
}

/** The verdict of valid sources, by their polarities; no polarity at all is broken. */
export function verdictOfPolarities(polarities: readonly unknown[]): Verdict {
    if (polarities.length === 0) return "broken";
    const supports = polarities.some((p) => p === "supports");
    const refutes = polarities.some((p) => p === "refutes");
    if (polarities.some((p) => p !== "supports" && p !== "refutes")) return "broken";
    if (supports && refutes) return "contested";
    return supports ? "supported" : "refuted";
}
