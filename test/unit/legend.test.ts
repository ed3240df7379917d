/**
 * One legend (docs/verdicts.md, "One legend"; issue 34 item 10): every place a verdict is drawn uses
 * shared/legend.ts's colour and glyph: the theme colours' defaults (the editor's marks, the view's
 * icons), the gutter icons' SVG, sources by polarity, and the HTML report. The view's icons and the
 * gutter as VS Code draws them are checked end to end in test/e2e/themes.test.ts.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { renderHtml } from "../../server/src/render/html";
import { type ThemeKind, VERDICT_COLORS, VERDICT_GLYPHS, verdictColorId } from "../../shared/legend";
import { contrast } from "./contrast";

const repo = path.resolve(__dirname, "../../..");
const VERDICTS = ["broken", "refuted", "contested", "supported"] as const;
const colors: { id: string; defaults: Record<ThemeKind, string> }[] = JSON.parse(
    fs.readFileSync(path.join(repo, "package.json"), "utf8"),
).contributes.colors;
const defaultsOf = (id: string) => colors.find((c) => c.id === id)?.defaults;

/** The colours an SVG paints with, white (the glyph's inner mark) aside. */
function paints(file: string): Set<string> {
    const svg = fs.readFileSync(path.join(repo, "media", file), "utf8");
    const found = [...svg.matchAll(/(?:fill|stroke)="(#[0-9a-f]{3,8})"/gi)].map((m) => m[1].toLowerCase());
    return new Set(found.filter((c) => c !== "#fff" && c !== "#ffffff"));
}

describe("one legend: each verdict one colour and one glyph everywhere", () => {
    it("the theme colour of each verdict defaults to the legend's colour in all four theme kinds", () => {
        for (const verdict of VERDICTS) {
            assert.deepEqual(defaultsOf(verdictColorId(verdict)), VERDICT_COLORS[verdict], verdict);
        }
        // Distinct colours: no two verdicts alike in any theme kind.
        for (const kind of ["light", "dark", "highContrast", "highContrastLight"] as ThemeKind[]) {
            assert.equal(new Set(VERDICTS.map((v) => VERDICT_COLORS[v][kind])).size, 4, kind);
        }
        assert.equal(new Set(Object.values(VERDICT_GLYPHS)).size, 4, "four different glyphs");
    });

    it("the waiting-for-sources gutter icon is painted in its own theme colour, dark and light", () => {
        const defaults = defaultsOf("sourcecheck.claimAwaitingForeground");
        assert.ok(defaults);
        assert.deepEqual([...paints("awaiting-sources.svg")], [defaults.dark]);
        assert.deepEqual([...paints("awaiting-sources-light.svg")], [defaults.light]);
    });

    it("each verdict's gutter icon is painted in the legend's colour, dark and light", () => {
        for (const verdict of VERDICTS) {
            assert.deepEqual([...paints(`verdict-${verdict}.svg`)], [VERDICT_COLORS[verdict].dark], verdict);
            assert.deepEqual([...paints(`verdict-${verdict}-light.svg`)], [VERDICT_COLORS[verdict].light], verdict);
        }
    });

    it("a source is drawn in its polarity's verdict colour: refuting purple, supporting green, never broken red", () => {
        const polarity = { supports: "supported", refutes: "refuted" } as const;
        for (const [kind, verdict] of Object.entries(polarity)) {
            const legend = VERDICT_COLORS[verdict];
            assert.deepEqual([...paints(`${kind}.svg`)], [legend.dark], kind);
            assert.deepEqual([...paints(`${kind}-light.svg`)], [legend.light], kind);
            const border = defaultsOf(`sourcecheck.${kind}Border`);
            assert.equal(border?.highContrast, legend.highContrast, `${kind} outline in High Contrast`);
            assert.equal(border?.highContrastLight, legend.highContrastLight, `${kind} outline in High Contrast Light`);
            // The tint is the verdict's tint (light and dark; high contrast has outlines only).
            const tint = defaultsOf(`sourcecheck.${kind}Background`);
            const verdictTint = defaultsOf(`sourcecheck.claim${verdict[0].toUpperCase()}${verdict.slice(1)}Background`);
            const brokenLine = defaultsOf("sourcecheck.brokenRefBackground");
            for (const theme of ["light", "dark"] as ThemeKind[]) {
                const hue = (c: string | undefined) => c?.slice(0, 7).toLowerCase();
                assert.equal(hue(tint?.[theme]), hue(verdictTint?.[theme]), `${kind} tint in ${theme}`);
                assert.notEqual(hue(tint?.[theme]), hue(brokenLine?.[theme]), `${kind} tint is not a broken line's`);
            }
        }
    });

    it("the HTML report labels each verdict with the legend's glyph and colours it with the legend's colour", () => {
        const html = renderHtml({
            title: "t",
            generator: "g",
            report: { ok: true, exitCode: 0, validCount: 0, invalidCount: 0, schemaErrors: [], entries: [] },
            documents: [],
        });
        const [light, dark] = (/<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "").split(
            "@media (prefers-color-scheme: dark)",
        );
        const variable = (css: string, name: string) => new RegExp(`--${name}: (#[0-9a-f]{6})`).exec(css)?.[1];
        for (const verdict of VERDICTS) {
            const badge = new RegExp(`<span class="badge ${verdict}">([^<]*)</span>`).exec(html)?.[1];
            assert.equal(badge, `${VERDICT_GLYPHS[verdict]} ${verdict}`);
            const name = verdict === "broken" ? "broken-bg" : verdict;
            assert.equal(variable(light, name), VERDICT_COLORS[verdict].light, `${verdict} on the light page`);
            assert.equal(variable(dark, name), VERDICT_COLORS[verdict].dark, `${verdict} on the dark page`);
            // Numbers and the broken badge are written on the verdict's colour: readable text (4.5:1).
            for (const [css, kind] of [
                [light, "light"],
                [dark, "dark"],
            ] as const) {
                const onMark = variable(css, "on-mark") ?? "";
                const ratio = contrast(onMark, VERDICT_COLORS[verdict][kind]);
                assert.ok(ratio >= 4.5, `text on ${verdict} (${kind}): ${ratio.toFixed(2)}:1`);
            }
        }
    });
});
