/**
 * One legend (docs/verdicts.md, "One legend"): each verdict has one glyph and one colour wherever it is
 * drawn: the gutter icons (media/verdict-*.svg draw these shapes in these colours), the SourceCheck
 * view (the codicon of the same shape), hovers, the marks in cited documents and the HTML report.
 * In the editor the colour is the theme colour `sourcecheck.claim<Verdict>Foreground`, whose defaults
 * (package.json, contributes.colors) are `VERDICT_COLORS`; test/unit/legend.test.ts holds every
 * drawing to this file.
 */
import type { Verdict } from "./customProtocol";

/** A shape for each verdict, so verdicts read without colour: triangle, circled cross, half disc, tick. */
export const VERDICT_GLYPHS: Record<Verdict, string> = {
    broken: "⚠",
    refuted: "⊗",
    contested: "◐",
    supported: "✓",
};

/** The codicon of the same shape as the glyph (the SourceCheck view's icons). */
export const VERDICT_CODICONS: Record<Verdict, string> = {
    broken: "warning",
    refuted: "error",
    contested: "color-mode",
    supported: "pass",
};

/** The theme kinds VS Code gives colour defaults for (contributes.colors). */
export type ThemeKind = "light" | "dark" | "highContrast" | "highContrastLight";

/**
 * Each verdict's colour per theme kind. Broken is the workbench's error colour; the others are at
 * least 3:1 against each default theme's editor background (docs/verdicts.md, "Colours").
 */
export const VERDICT_COLORS: Record<Verdict, Record<ThemeKind, string>> = {
    broken: { light: "#e51400", dark: "#f14c4c", highContrast: "#f48771", highContrastLight: "#b5200d" },
    refuted: { light: "#8250df", dark: "#d2a8ff", highContrast: "#d2a8ff", highContrastLight: "#6639ba" },
    contested: { light: "#9a6700", dark: "#e3b341", highContrast: "#ffd33d", highContrastLight: "#7d4e00" },
    supported: { light: "#1a7f37", dark: "#3fb950", highContrast: "#56d364", highContrastLight: "#116329" },
};

/** The theme colour of a verdict's marks (contributes.colors in package.json). */
export function verdictColorId(verdict: Verdict): string {
    return `sourcecheck.claim${verdict[0].toUpperCase()}${verdict.slice(1)}Foreground`;
}
