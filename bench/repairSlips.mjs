// Repair on the slips people make in a boundary string (docs/repair.md, "Measured"): the corpus of
// test/unit/repairSlips.ts (seeded, generated without repair's code), bundled from the sources with
// esbuild, one row per kind. The ratio is the share NOT restored by the certain repair (target
// <= 0.05); a wrong certain repair, or a certain one on an undecidable twin, fails the run.
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repo = fileURLToPath(new URL("..", import.meta.url));

export async function repairSlipsCases({ scratch, smoke, record }) {
    const outfile = join(scratch, "repairSlipsMeasure.cjs");
    await build({
        entryPoints: [join(repo, "test/unit/repairSlipsMeasure.ts")],
        bundle: true,
        platform: "node",
        target: "node20",
        format: "cjs",
        mainFields: ["module", "main"],
        outfile,
        logLevel: "warning",
        // The generator reads its prose fixtures relative to its own compiled place (out/test/unit).
        define: { __dirname: JSON.stringify(join(repo, "out/test/unit")) },
    });
    const { measureSlips, slipRows } = createRequire(import.meta.url)(outfile);
    const { tallies, failures } = measureSlips(smoke ? 40 : 300);
    console.log(slipRows(tallies).join("\n"));
    for (const [kind, t] of tallies) {
        if (t.wrong > 0 || t.certainOnUndecidable > 0) throw new Error(`repair-slips ${kind}:\n${failures.join("\n")}`);
        record(
            `repair of a slip in a boundary string: ${kind} (${t.cases} cases, no lock, no history), share not restored`,
            { ratio: 1 - t.restored / t.cases },
            0.05,
            {
                cases: t.cases,
                restored: t.restored,
                wrong: t.wrong,
                undecidable: t.undecidable,
                certainOnUndecidable: t.certainOnUndecidable,
            },
        );
    }
}
