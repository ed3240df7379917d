// `check --json` of one large session file, as a whole process (docs/benchmarks-cases.md, "A session file"):
// 100,000 annotations and about 20 MB of documents embedded in the file (the skill's batch input), so
// no document is read from disk. Against a node process that only reads that file, parses it and
// splits each document's content into lines, alternated with it in one run. Both start a process:
// the ratio includes start-up, as a CI job or an agent pays it.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sideBySide } from "./measure.mjs";
import { makeWorkspace } from "./workload.mjs";

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const TARGET = 2.0;

/** The floor: read, JSON.parse, split every document's content into lines; nothing else. */
const FLOOR = `
const fs = require("node:fs");
const value = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
let lines = 0;
for (const document of value.session.documents) lines += document.content.split("\\n").length;
if (lines === 0 || value.annotations.length === 0) process.exit(1);
`;

function run(args) {
    const done = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"], maxBuffer: 1 << 30 });
    return done.status;
}

export async function sessionCases({ scratch, smoke, record }) {
    const size = smoke ? { annotations: 1000, totalBytes: 200_000 } : { annotations: 100_000, totalBytes: 20_000_000 };
    const workspace = makeWorkspace(join(scratch, "session"), { ...size, documents: 20, seed: 7 });
    const documents = workspace.documents.map((path) => ({
        path,
        content: readFileSync(join(workspace.dir, path), "utf8"),
    }));
    const { annotations } = JSON.parse(readFileSync(workspace.annotationFile, "utf8"));
    const file = join(workspace.dir, "session.json");
    writeFileSync(file, JSON.stringify({ session: { documents }, annotations }));
    const bin = join(repo, "bin", "sourcecheck.js");
    const status = run([bin, "check", "--json", file]);
    if (status !== 0) throw new Error(`check --json exited ${status} on a session that should be clean`);
    const measured = await sideBySide(
        () => run([bin, "check", "--json", file]),
        () => run(["-e", FLOOR, file]),
        { runs: smoke ? 1 : 5, warmup: 1 },
    );
    record(
        `check --json of a ${size.annotations}-annotation session file (${Math.round(workspace.documentBytes / 1e6)} MB of documents), whole process, vs read + parse + split`,
        { ratio: measured.ours.median / measured.baseline.median },
        smoke ? undefined : TARGET,
        {
            ours: measured.ours,
            baseline: measured.baseline,
            baselineName: "node: read the file, JSON.parse, split each document into lines",
        },
    );
}
