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
import { contrast } from "./contrast";

const repo = path.resolve(__dirname, "../../..");
const BACKGROUNDS = { light: "#ffffff", dark: "#1e1e1e", highContrast: "#000000", highContrastLight: "#ffffff" };
type Theme = keyof typeof BACKGROUNDS;
const THEME_NAMES: Record<Theme, string> = {
    light: "Light+",
    dark: "Dark+",
    highContrast: "High Contrast",
    highContrastLight: "High Contrast Light",
};

/** The rows of docs/verdicts.md's colour table: each colour id and what it draws. */
const TABLE_ROWS: [string, string][] = [
    ["sourcecheck.claimBrokenForeground", "(= the error colour)"],
    ["sourcecheck.brokenRefForeground", "(label text)"],
    ["sourcecheck.claimRefutedForeground", ""],
    ["sourcecheck.claimContestedForeground", ""],
    ["sourcecheck.claimSupportedForeground", ""],
    ["sourcecheck.claimAwaitingForeground", "(a claim waiting for its sources)"],
    ["sourcecheck.uncoveredBorder", "(Show Coverage's dashed outline)"],
    ["sourcecheck.refutesBorder", "(a refuting source's outline)"],
    ["sourcecheck.supportsBorder", "(a supporting source's outline)"],
];
const TABLE_START = "<!-- contrast:start (written by test/unit/themeColors.test.ts) -->";
const TABLE_END = "<!-- contrast:end -->";

describe("theme colours: contrast against the editor background", () => {
    const colors: { id: string; defaults: Record<Theme, string> }[] = JSON.parse(
        fs.readFileSync(path.join(repo, "package.json"), "utf8"),
    ).contributes.colors;
    const byId = new Map(colors.map((c) => [c.id, c.defaults]));
    const marks = ["Broken", "Refuted", "Contested", "Supported"].map((v) => `sourcecheck.claim${v}Foreground`);
    /** Marks that must never be read as a verdict: a claim waiting for its sources, an uncovered sentence. */
    const otherMarks = ["sourcecheck.claimAwaitingForeground", "sourcecheck.uncoveredBorder"];

    it("each verdict's mark is at least 3:1, the broken-ref label at least 4.5:1, in all four themes", () => {
        const table: string[] = [];
        for (const id of [...marks, ...otherMarks, "sourcecheck.brokenRefForeground"]) {
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
        assert.equal(table.length, 7);
    });

    // Issue 34.5: a tint is transparent in high contrast, so every mark there is an outline.
    it("in both high-contrast themes every outline (sources, coverage) is opaque and at least 3:1", () => {
        const outlines = ["sourcecheck.supportsBorder", "sourcecheck.refutesBorder", "sourcecheck.uncoveredBorder"];
        for (const id of outlines) {
            const defaults = byId.get(id);
            assert.ok(defaults, `${id} is contributed`);
            for (const theme of ["highContrast", "highContrastLight"] as Theme[]) {
                assert.match(defaults[theme], /^#[0-9a-f]{6}$/i, `${id} ${theme} is opaque`);
                const ratio = contrast(defaults[theme], BACKGROUNDS[theme]);
                assert.ok(ratio >= 3, `${id} in ${theme}: ${ratio.toFixed(2)}:1 < 3:1`);
            }
        }
    });

    // The docs' table is this test's measurement, never typed by hand: it fails when they differ;
    // SOURCECHECK_WRITE_DOCS=1 writes the measured table into docs/verdicts.md.
    it("docs/verdicts.md's contrast table is the measurement of the contributed defaults", () => {
        const heads = Object.keys(BACKGROUNDS).map((t) => `${THEME_NAMES[t as Theme]} (on ${BACKGROUNDS[t as Theme]})`);
        const lines = [`| colour id | ${heads.join(" | ")} |`, `| --- |${" --- |".repeat(heads.length)}`];
        for (const [id, what] of TABLE_ROWS) {
            const defaults = byId.get(id);
            assert.ok(defaults, `${id} is contributed`);
            const cells = (Object.keys(BACKGROUNDS) as Theme[]).map((theme) =>
                /^#[0-9a-f]{6}$/i.test(defaults[theme])
                    ? `${defaults[theme]} ${contrast(defaults[theme], BACKGROUNDS[theme]).toFixed(1)}:1`
                    : "transparent",
            );
            lines.push(`| \`${id}\`${what ? ` ${what}` : ""} | ${cells.join(" | ")} |`);
        }
        const measured = `${TABLE_START}\n${lines.join("\n")}\n${TABLE_END}`;
        const docPath = path.join(repo, "docs", "verdicts.md");
        const doc = fs.readFileSync(docPath, "utf8");
        const start = doc.indexOf(TABLE_START);
        const end = doc.indexOf(TABLE_END);
        assert.ok(start >= 0 && end > start, "docs/verdicts.md has the table's markers");
        const written = doc.slice(start, end + TABLE_END.length);
        if (process.env.SOURCECHECK_WRITE_DOCS === "1" && written !== measured)
            fs.writeFileSync(docPath, doc.replace(written, measured));
        else assert.equal(written, measured, "run with SOURCECHECK_WRITE_DOCS=1 to write the measured table");
    });

    it("broken is drawn in the error colour, and no two verdicts (nor waiting, nor uncovered) share a mark colour in any theme", () => {
        const errorForeground = {
            light: "#e51400",
            dark: "#f14c4c",
            highContrast: "#f48771",
            highContrastLight: "#b5200d",
        };
        assert.deepEqual(byId.get("sourcecheck.claimBrokenForeground"), errorForeground);
        for (const theme of Object.keys(BACKGROUNDS) as Theme[]) {
            const used = [...marks, ...otherMarks].map((id) => byId.get(id)?.[theme]?.toLowerCase());
            assert.equal(new Set(used).size, used.length, `${theme}: ${used.join(", ")}`);
        }
    });
});
