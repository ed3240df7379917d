/**
 * One legend (docs/verdicts.md, "One legend"): each verdict has one glyph and one colour wherever it is
 * drawn: the gutter icons (media/verdict-*.svg draw these shapes), the SourceCheck view, hovers, the
 * marks in cited documents and the HTML report. The colour is the theme colour `sourcecheck.claim<Verdict>Foreground`.
 */
import type { Verdict } from "./customProtocol";

/** A shape for each verdict, so verdicts read without colour: triangle, circled cross, half disc, tick. */
export const VERDICT_GLYPHS: Record<Verdict, string> = {
    broken: "⚠",
    refuted: "⊗",
    contested: "◐",
    supported: "✓",
};

/** The theme colour of a verdict's marks (contributes.colors in package.json). */
export function verdictColorId(verdict: Verdict): string {
    return `sourcecheck.claim${verdict[0].toUpperCase()}${verdict.slice(1)}Foreground`;
}
