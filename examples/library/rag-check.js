// A RAG pipeline checking its model's citations in memory (docs/library.md): the retrieved passages,
// the model's answer and the annotations it wrote go into a memory workspace; nothing touches a disk.
// Run it with `node examples/library/rag-check.js` once the package is installed (npm i sourcecheck).
const { check, createMemoryWorkspace } = require("sourcecheck");

// What the retriever returned, by the path the model was told to cite.
const passages = {
    "sources/release-notes.md": "# Orbit 2.4\nOrbit 2.4 ships on 12 May.\nStartup is 37% faster than 2.3.\n",
    "sources/faq.md": "# FAQ\nOrbit runs on Linux, macOS and Windows.\n",
};

// The model's answer, and the annotations it wrote for it (one claim cites a line it misremembered).
const answer = "Orbit 2.4 ships on 12 May. It starts 37% faster.\nIt runs on Linux, macOS and Windows.\n";
const ref = (path, line, start, end) => ({ path, start: { line, str: start }, end: { line, str: end } });
const annotations = [
    {
        claim: ref("answer.md", 1, "Orbit", "May."),
        sources: [{ ...ref("sources/release-notes.md", 2, "Orbit", "May."), polarity: "supports", confidence: 0.95 }],
    },
    {
        claim: ref("answer.md", 1, "It starts", "faster."),
        sources: [{ ...ref("sources/release-notes.md", 2, "Startup", "2.3."), polarity: "supports", confidence: 0.9 }],
    },
    {
        claim: ref("answer.md", 2, "It runs", "Windows."),
        sources: [{ ...ref("sources/faq.md", 2, "Orbit runs", "Windows."), polarity: "supports", confidence: 0.9 }],
    },
];

async function main() {
    const workspace = createMemoryWorkspace({
        ...passages,
        "answer.md": answer,
        "answer.sourcecheck.json": JSON.stringify({ annotations }),
    });
    // The same object `sourcecheck check --json answer.sourcecheck.json` prints for these files on disk.
    const report = await check(workspace, { paths: ["answer.sourcecheck.json"] });
    console.log(`${report.validCount} valid, ${report.invalidCount} invalid (exit ${report.exitCode})`);
    for (const entry of report.entries) {
        if (entry.valid) continue;
        const refs = [entry.claim, ...entry.sources].filter((r) => !r.valid);
        for (const r of refs) console.log(`annotation ${entry.index + 1}: ${r.path}: ${r.error.code}: ${r.error.message}`);
    }
    // A pipeline would ask the model to cite again here; this example only reports.
    process.exitCode = report.exitCode;
}

main();
