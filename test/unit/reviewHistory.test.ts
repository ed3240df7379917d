/**
 * Review's change `base...head` comes through the workspace's history (workspace.ts, changesBetween):
 * git on Node, given revisions in memory. The same scope follows from either: the annotation files
 * changed, and those citing a document changed or renamed (by its old name), nothing else.
 */
import * as assert from "node:assert/strict";
import { citedRefPaths, reviewScope } from "../../server/src/operations/review";
import { createMemoryWorkspace } from "../../server/src/workspace/memoryWorkspace";
import { GIT_HISTORY } from "../../server/src/workspace/nodeWorkspace";
import type { Workspace } from "../../server/src/workspace/workspace";
import { pullRequestRepository, REPORT } from "./reviewRepo";

/** The affected files of `base...head` in a workspace, its annotation files' refs read through it. */
function affected(workspace: Workspace, files: string[], base: string, head: string | undefined) {
    const history = workspace.history;
    assert.ok(history?.changesBetween, "the workspace has a history of changes");
    const change = history.changesBetween(workspace.root, base, head);
    const cites = new Map<string, string[]>();
    for (const file of files) {
        const read = workspace.readText(`${workspace.root}/${file}`, 1 << 20);
        assert.ok(read.ok);
        cites.set(file, citedRefPaths(JSON.parse(read.text)));
    }
    const citing = (path: string) => files.filter((f) => cites.get(f)?.includes(path));
    return reviewScope(change.changes, { annotationFiles: files, citing }).map((a) => ({
        file: a.file,
        changed: a.changed?.status,
        documents: a.documents.map((d) => d.path),
    }));
}

const ref = (path: string) => ({ path, start: { line: 1, str: "A" }, end: { line: 1, str: "B" } });
const annotation = (claim: string, source: string) =>
    JSON.stringify({ annotations: [{ claim: ref(claim), sources: [{ ...ref(source), polarity: "supports" }] }] });

describe("review's change through the workspace history", () => {
    it("in memory: the given change of base...head scopes the review, with no disk and no git", () => {
        const workspace = createMemoryWorkspace(
            {
                "a.sourcecheck.json": annotation("answer.md", "docs/old.md"),
                "b.sourcecheck.json": annotation("answer.md", "notes.md"),
                "c.sourcecheck.json": annotation("answer.md", "docs/new.md"),
                "d.sourcecheck.json": annotation("answer.md", "untouched.md"),
            },
            {
                history: {
                    revisions: {},
                    changes: {
                        "main...pr": [
                            { status: "renamed", path: "docs/new.md", previousPath: "docs/old.md" },
                            { status: "modified", path: "notes.md" },
                            { status: "added", path: "c.sourcecheck.json" },
                        ],
                    },
                },
            },
        );
        const files = ["a.sourcecheck.json", "b.sourcecheck.json", "c.sourcecheck.json", "d.sourcecheck.json"];
        assert.deepEqual(affected(workspace, files, "main", "pr"), [
            { file: "a.sourcecheck.json", changed: undefined, documents: ["docs/new.md"] },
            { file: "b.sourcecheck.json", changed: undefined, documents: ["notes.md"] },
            { file: "c.sourcecheck.json", changed: "added", documents: ["docs/new.md"] },
        ]);
        assert.throws(() => workspace.history?.changesBetween?.(workspace.root, "main", "other"), /unknown revisions/);
        assert.ok(
            workspace.reads.every((r) => r.endsWith(".sourcecheck.json")),
            workspace.reads.join(),
        );
    });

    it("on Node: git's base...head, revisions resolved to commits, a head other than the checked-out one refused", () => {
        const repo = pullRequestRepository();
        const change = GIT_HISTORY.changesBetween?.(repo.dir, "main", "pr");
        assert.equal(change?.base, repo.base);
        assert.equal(change?.head, repo.head);
        assert.deepEqual(
            change?.changes.map((c) => `${c.status} ${c.path}`).sort(),
            ["added c.sourcecheck.json", `modified ${REPORT}`, "modified notes/locked.md"].sort(),
        );
        assert.equal(GIT_HISTORY.changesBetween?.(repo.dir, "main", undefined).head, undefined);
        assert.throws(() => GIT_HISTORY.changesBetween?.(repo.dir, "pr", "main"), /is not the checked-out commit/);
        assert.throws(
            () => GIT_HISTORY.changesBetween?.(repo.dir, "no-such-rev", "pr"),
            /unknown revision "no-such-rev"/,
        );
    });
});
