/**
 * The verdict of an annotation (docs/verdicts.md), shared by the editor's decorations and view, the
 * HTML report and the CLI: `broken` if its claim or any source fails to resolve (or fails the
 * schema); else `supported` if every source supports, `refuted` if every source refutes,
 * `contested` if both occur.
 */
/** What a verdict is read from: a report entry (core/check.ts), or anything shaped like one. */
export interface VerdictEntry {
    valid: boolean;
    claim: { valid: boolean };
    sources: readonly { valid: boolean; polarity?: unknown }[];
}

export type Verdict = "supported" | "refuted" | "contested" | "broken";

export const VERDICTS: readonly Verdict[] = ["supported", "contested", "refuted", "broken"];

/**
 * What `check --json` says of each entry (docs/verdicts.md): its verdict, or `none` while it has no
 * sources (a claim waiting for its evidence), whatever else is wrong with it.
 */
export type EntryVerdict = Verdict | "none";

export const ENTRY_VERDICTS: readonly EntryVerdict[] = ["supported", "refuted", "contested", "broken", "none"];

/** The verdict a report entry carries (`ReportEntry.verdict`). */
export function entryVerdict(entry: VerdictEntry): EntryVerdict {
    return entry.sources.length === 0 ? "none" : verdictOf(entry);
}

/** The verdict of a report entry. */
export function verdictOf(entry: VerdictEntry): Verdict {
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
