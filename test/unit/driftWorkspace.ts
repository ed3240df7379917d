/**
 * A small workspace whose cited document drifts after its refs were locked and committed (the
 * scenario of docs/contract.md, "Operations"): a paragraph moved, a cited sentence deleted, a cited
 * sentence reworded. Every front end must repair it alike (test/protocol/operationsParity.test.ts),
 * and report it with numbers from 1 (test/unit/contractNumbers.test.ts).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { annotateQuotes } from "../../server/src/core/annotate";
import { Session, SessionDocument } from "../../server/src/core/session";
import { runCli } from "./cliRun";

export const FILE = "answer.sourcecheck.json";
export const GUIDE = "sources/guide.md";

const SYNC = [
    "## Sync",
    "",
    "Offline sync resumes after the client reconnects.",
    "Conflicts are resolved by the most recent write.",
];
const PERFORMANCE = [
    "## Performance",
    "",
    "Cold start takes under two seconds on a laptop.",
    "Peak memory fell by a third after the cache was trimmed.",
];
const PLATFORMS = [
    "## Platforms",
    "",
    "Windows support is planned for a later release.",
    "Linux packages are built for x86 and ARM.",
];

const GUIDE_BEFORE = ["# Orbit guide", "", ...SYNC, "", ...PERFORMANCE, "", ...PLATFORMS, ""].join("\n");
/** Platforms moved to the top; the sentence on conflicts deleted; the one on memory reworded inside. */
const GUIDE_AFTER = [
    "# Orbit guide",
    "",
    ...PLATFORMS,
    "",
    ...SYNC.slice(0, 3),
    "",
    PERFORMANCE[0],
    "",
    PERFORMANCE[2],
    "Peak memory dropped by nearly a third after the cache was trimmed.",
    "",
].join("\n");

const ANSWER = [
    "Orbit resumes sync offline and settles conflicts by the latest write.",
    "It starts cold in under two seconds and uses a third less memory.",
    "Windows support comes later; Linux builds exist for x86 and ARM.",
    "",
].join("\n");

const QUOTES = [
    {
        claim: "Orbit resumes sync offline and settles conflicts by the latest write.",
        sources: [
            "Offline sync resumes after the client reconnects.",
            "Conflicts are resolved by the most recent write.",
        ],
    },
    {
        claim: "It starts cold in under two seconds and uses a third less memory.",
        sources: [
            "Cold start takes under two seconds on a laptop.",
            "Peak memory fell by a third after the cache was trimmed.",
        ],
    },
    {
        claim: "Windows support comes later; Linux builds exist for x86 and ARM.",
        sources: ["Windows support is planned for a later release.", "Linux packages are built for x86 and ARM."],
    },
];

function git(cwd: string, args: string[]): void {
    execFileSync("git", args, { cwd, stdio: "ignore" });
}

/** The annotation file citing QUOTES, built as `annotate` builds refs. */
function annotationFile(): string {
    const session = new Session([new SessionDocument("answer.md", ANSWER), new SessionDocument(GUIDE, GUIDE_BEFORE)]);
    const annotations = QUOTES.map(({ claim, sources }) => {
        const built = annotateQuotes(
            {
                claim: { path: "answer.md", quote: claim },
                sources: sources.map((quote) => ({
                    path: GUIDE,
                    quote,
                    polarity: "supports" as const,
                    confidence: 0.9,
                })),
            },
            session,
        );
        if (!built.ok) throw new Error(`fixture: ${built.error.message}`);
        return built.annotation;
    });
    return `${JSON.stringify({ annotations }, null, 2)}\n`;
}

/**
 * The workspace: written, locked with `sourcecheck lock`, committed (so history is evidence too
 * where git is), then the guide drifts. Returns its root.
 */
export function driftedWorkspace(options: { git?: boolean } = {}): string {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-drift-"));
    fs.mkdirSync(path.join(root, "sources"));
    fs.writeFileSync(path.join(root, "answer.md"), ANSWER);
    fs.writeFileSync(path.join(root, GUIDE), GUIDE_BEFORE);
    fs.writeFileSync(path.join(root, FILE), annotationFile());
    const locked = runCli(["lock", FILE], { cwd: root });
    if (locked.status !== 0) throw new Error(`fixture: lock failed: ${locked.stdout}${locked.stderr}`);
    if (options.git !== false) {
        git(root, ["init", "-q"]);
        git(root, ["add", "-A"]);
        git(root, ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "answer"]);
    }
    fs.writeFileSync(path.join(root, GUIDE), GUIDE_AFTER);
    return root;
}
