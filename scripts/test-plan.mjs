// What `npm test` does, in order: before a suite runs, whatever its tests need on the machine is
// installed (idempotent), so a fresh clone passes in the README's order. A pure plan, tested by
// test/unit/testPlan.test.ts, and the step that carries out one need.
import { ensureChromium } from "./e2e-install.mjs";

/**
 * Machine-level needs per suite. unit: the render test drives a real Chromium. install: python3 and
 * the npm registry and PyPI, as a user's install has (it installs pre-commit into its own
 * virtualenv). e2e: its runner (scripts/e2e.mjs) installs the offline VS Code and Chromium itself
 * before its first test, since the route it picks (desktop or offline) decides what it needs.
 */
export const SUITE_NEEDS = { unit: ["chromium"], protocol: [], install: [], e2e: [], "e2e-web": [] };

/** The steps of a run: `{ ensure: need }` before the first suite that needs it, then `{ suite }`. */
export function testPlan(suites, needs = SUITE_NEEDS) {
    const steps = [];
    const ensured = new Set();
    for (const suite of suites) {
        for (const need of needs[suite] ?? []) {
            if (ensured.has(need)) continue;
            ensured.add(need);
            steps.push({ ensure: need });
        }
        steps.push({ suite });
    }
    return steps;
}

/** Carries out one need; returns the environment the suites should see (e.g. where Chromium is). */
export function ensureNeed(need, log = (m) => console.log(`[setup] ${m}`)) {
    if (need === "chromium") return { SOURCECHECK_CHROMIUM: ensureChromium({ log }) };
    throw new Error(`unknown test need ${need}`);
}

/**
 * `npm run test:fast` (scripts/test-fast.mjs): the pure core, the features on the in-memory workspace
 * and the CLI on small inputs, in seconds. Every one of them runs in `npm test` too, with the scale,
 * hardening, benchmark-smoke and tooling tests that make the full gate slow (docs/testing.md).
 */
export const FAST_TESTS = [
    "test/unit/core.test.ts",
    "test/unit/sentences.test.ts",
    "test/unit/asciiWords.test.ts",
    "test/unit/reportFields.test.ts",
    "test/unit/annotationFiles.test.ts",
    "test/unit/lockReader.test.ts",
    "test/unit/workspace.test.ts",
    "test/unit/libraryCheck.test.ts",
    "test/unit/lock.test.ts",
    "test/unit/lockEditor.test.ts",
    "test/unit/freshDocuments.test.ts",
    "test/unit/editedDocument.test.ts",
    "test/unit/uris.test.ts",
    "test/unit/languageService.test.ts",
    "test/unit/serviceOnMemory.test.ts",
    "test/unit/workspaceFeatures.test.ts",
    "test/unit/numbering.test.ts",
    "test/unit/snapToWord.test.ts",
    "test/unit/textCuts.test.ts",
    "test/unit/pathTree.test.ts",
    "test/unit/placesIndex.test.ts",
    "test/unit/refWriter.test.ts",
    "test/unit/annotationEdits.test.ts",
    "test/unit/repair.test.ts",
    "test/unit/repairCandidates.test.ts",
    "test/unit/repairMisquote.test.ts",
    "test/unit/repairCertainEdits.test.ts",
    "test/unit/evidenceHits.test.ts",
    "test/unit/agentTools.test.ts",
    "test/unit/mcpTransport.test.ts",
    "test/unit/quotes.test.ts",
    "test/unit/quotesCli.test.ts",
    "test/unit/cite.test.ts",
    "test/unit/import.test.ts",
    "test/unit/annotate.test.ts",
    "test/unit/annotateEdits.test.ts",
    "test/unit/lockCli.test.ts",
    "test/unit/testFast.test.ts",
    "test/unit/docsIndex.test.ts",
    "test/unit/docsLinks.test.ts",
    "test/unit/changelog.test.ts",
    "client/src/test/lockOffer.test.ts",
    "client/src/test/testHooks.test.ts",
    "client/src/test/toolConfirmation.test.ts",
];
