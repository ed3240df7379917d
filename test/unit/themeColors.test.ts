/**
 * Verdicts at a glance (docs/verdicts.md, "Colours"): every mark SourceCheck draws in a colour of its
 * own is measured against the editor background of the default themes (Light+ #ffffff, Dark+
 * #1e1e1e, High Contrast #000000, High Contrast Light #ffffff) with the WCAG 2 contrast ratio:
 * at least 3:1 for marks (underlines, strike-through, ruler, outlines), 4.5:1 for the label text
 * after a broken ref's line. The verdicts' mark colours also differ from one another in every theme.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");
const BACKGROUNDS = { light: "#ffffff", dark: "#1e1e1e", highContrast: "#000000", highContrastLight: "#ffffff" };
type Theme = keyof typeof BACKGROUNDS;

function luminance(hex: string): number {
    const [r, g, b] = [1, 3, 5].map((i) => {
        const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
}

describe("theme colours: contrast against the editor background", () => {
    const colors: { id: string; defaults: Record<Theme, string> }[] = JSON.parse(
        fs.readFileSync(path.join(repo, "package.json"), "utf8"),
    ).contributes.colors;
    const byId = new Map(colors.map((c) => [c.id, c.defaults]));
    const marks = ["Broken", "Refuted", "Contested", "Supported"].map((v) => `sourcecheck.claim${v}Foreground`);

    it("each verdict's mark is at least 3:1, the broken-ref label at least 4.5:1, in all four themes", () => {
        const table: string[] = [];
        for (const id of [...marks, "sourcecheck.brokenRefForeground"]) {
            const defaults = byId.get(id);
            assert.ok(defaults, `${id} is contributed`);
            const need = id === "sourcecheck.brokenRefForeground" ? 4.5 : 3;
            const row: string[] = [];
            for (const theme of Object.keys(BACKGROUNDS) as Theme[]) {
                const color = defaults[theme];
                assert.match(color, /^#[0-9a-f]{6}$/i, `${id} ${theme} is an opaque colour`);
                const ratio = contrast(color, BACKGROUNDS[theme]);
                assert.ok(ratio >= need, `${id} in ${theme}: ${ratio.toFixed(2)}:1 < ${need}:1`);
                row.push(ratio.toFixed(1));
            }
            table.push(`${id} ${row.join(" ")}`);
        }
        assert.equal(table.length, 5);
    });

    it("broken is drawn in the error colour, and no two verdicts share a mark colour in any theme", () => {
        const errorForeground = {
            light: "#e51400",
            dark: "#f14c4c",
            highContrast: "#f48771",
            highContrastLight: "#b5200d",
        };
        assert.deepEqual(byId.get("sourcecheck.claimBrokenForeground"), errorForeground);
        for (const theme of Object.keys(BACKGROUNDS) as Theme[]) {
            const used = marks.map((id) => byId.get(id)?.[theme]?.toLowerCase());
            assert.equal(new Set(used).size, marks.length, `${theme}: ${used.join(", ")}`);
        }
    });
});
