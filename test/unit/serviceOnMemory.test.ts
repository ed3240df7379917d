/**
 * The language service's features on the memory workspace (docs/testing.md), as
 * vscode-markdown-languageservice tests its providers on an InMemoryWorkspace: each test asserts what
 * a request answers and which files it read. A check reads each document its annotation file cites,
 * once, and the lock beside it; hover, definition, links, code actions and completion answer from that
 * check and read nothing; a cited document changed on disk is the only file read again; nothing
 * outside the root is read for a ref, and a lock is never taken for a document.
 */
import * as assert from "node:assert/strict";
import type { Diagnostic, Hover, LocationLink, MarkupContent } from "vscode-languageserver-protocol";
import { ROOT, serviceOver } from "./memoryService";

const SLA = "# SLA\n\nUptime is 99.9% per month.\nCredits apply below that.\n";
const FILES = {
    "answer.md": "The service promises 99.9% uptime.\nSupport answers within a day.\n",
    "sources/sla.md": SLA,
    "sources/support.md": "Tickets are answered within 24 hours.\n",
    "other.md": "Never cited.\n",
};
const ANNOTATIONS = {
    annotations: [
        {
            claim: { path: "answer.md", start: { line: 1, str: "The" }, end: { line: 1, str: "uptime." } },
            sources: [
                {
                    path: "sources/sla.md",
                    start: { line: 3, str: "Uptime" },
                    end: { line: 3, str: "per month." },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
        {
            claim: { path: "answer.md", start: { line: 2, str: "Support" }, end: { line: 2, str: "day." } },
            sources: [
                {
                    path: "sources/support.md",
                    start: { line: 1, str: "Tickets" },
                    end: { line: 1, str: "hours." },
                    polarity: "supports",
                    confidence: 0.9,
                },
            ],
        },
    ],
};
const FILE = "answer.sourcecheck.json";
const TEXT = JSON.stringify(ANNOTATIONS, null, 2);
const LOCK = `${ROOT}/answer.sourcecheck.lock.json`;
/** The configuration looked for from the file's folder upwards, as tsconfig.json is (docs/config.md). */
const CONFIG_LOOKUP = [`${ROOT}/sourcecheck.config.json`, "/sourcecheck.config.json"];

function opened(files: Record<string, string> = {}, text = TEXT) {
    const memory = serviceOver({ ...FILES, [FILE]: text, ...files });
    const document = memory.openDocument(FILE, "sourcecheck", text);
    const at = (needle: string, skip = 0) => document.positionAt(text.indexOf(needle) + skip);
    return { ...memory, document, at };
}

function items(report: { report: unknown }): Diagnostic[] {
    return (report.report as { items: Diagnostic[] }).items;
}

describe("language service on the memory workspace: answers and the files each request reads", () => {
    it("a check reads each cited document once and the lock beside the file; an uncited file never", () => {
        const { service, document, reads } = opened();
        assert.deepEqual(reads(), [], "opening queues the check; nothing is read yet");
        assert.deepEqual(items(service.diagnostics(document.uri, undefined)), []);
        assert.deepEqual(reads(), [
            ...CONFIG_LOOKUP,
            LOCK,
            `${ROOT}/answer.md`,
            `${ROOT}/sources/sla.md`,
            `${ROOT}/sources/support.md`,
        ]);
        // Pulled again: the check is kept, nothing is read.
        assert.deepEqual(items(service.diagnostics(document.uri, undefined)), []);
        assert.deepEqual(reads(), []);
    });

    it("hover, definition and document links answer from the check and read nothing", () => {
        const { service, document, at, reads, uri } = opened();
        service.diagnostics(document.uri, undefined);
        reads();
        const position = at("sources/support.md");
        const hover = service.hover({ textDocument: { uri: document.uri }, position }) as Hover;
        const shown = (hover.contents as MarkupContent).value;
        assert.match(shown, /\*\*Source 1\*\* · supports · confidence 0\.9/);
        assert.match(shown, /Tickets are answered within 24 hours\./);
        assert.doesNotMatch(shown, /Uptime/, "the hover shows the source under the cursor only");
        const [link] = service.definition({ textDocument: { uri: document.uri }, position }, true) as LocationLink[];
        assert.equal(link.targetUri, uri("sources/support.md"));
        assert.deepEqual(link.targetSelectionRange, {
            start: { line: 0, character: 0 },
            end: { line: 0, character: 37 },
        });
        assert.deepEqual(
            service.documentLinks(document.uri).map((l) => l.target),
            [uri("answer.md"), uri("sources/sla.md"), uri("answer.md"), uri("sources/support.md")],
        );
        assert.deepEqual(reads(), []);
    });

    it("a cited document changed on disk is the only file read again; the certain repair is the preferred fix", async () => {
        const { service, document, workspace, reads, uri, editDocument } = opened();
        service.diagnostics(document.uri, undefined);
        await service.scan(); // as the server does at start-up: the folders' ignore rules are read once
        reads();
        // A line inserted above the cited one: the ref's lines shifted.
        await workspace.write(`${ROOT}/sources/sla.md`, SLA.replace("\n\n", "\n\nIntro.\n"), { ifUnchanged: SLA });
        service.fileChangedOnDisk({ uri: uri("sources/sla.md"), type: 2 });
        const problems = items(service.diagnostics(document.uri, undefined));
        assert.deepEqual(
            problems.map((p) => [p.code, p.data?.pointer]),
            [
                ["boundary-not-found", "/annotations/0/sources/0/start/str"],
                ["boundary-not-found", "/annotations/0/sources/0/end/str"],
            ],
        );
        assert.deepEqual(reads(), [`${ROOT}/sources/sla.md`], "only the changed document");
        const actions = service.codeActions({
            textDocument: { uri: document.uri },
            range: problems[0].range,
            context: { diagnostics: problems },
        });
        const preferred = actions.filter((a) => a.isPreferred);
        assert.equal(preferred.length, 1);
        assert.match(preferred[0].title, /^Repair the ref \(its lines shifted/);
        const edits = preferred[0].edit?.changes?.[document.uri] ?? [];
        assert.deepEqual(
            edits.map((e) => e.newText),
            ["4", "4"],
        );
        assert.ok(actions.some((a) => a.title.startsWith("Fix all certain SourceCheck repairs")));
        assert.deepEqual(reads(), [], "the repair is computed from the documents as read");
        // The fix applied: the file checks clean from the documents already read; only its lock is read again.
        const fixed = editDocument(document, TEXT.replace(/"line": 3/g, '"line": 4'));
        assert.deepEqual(items(service.diagnostics(fixed.uri, undefined)), []);
        assert.deepEqual(reads(), [LOCK]);
    });

    it("completion lists the scan's files and the cited line's boundaries without reading a file", async () => {
        const { service, document, at, reads } = opened();
        service.diagnostics(document.uri, undefined);
        assert.deepEqual(await service.scan(), [`${ROOT}/${FILE}`]);
        reads();
        const paths = await service.completion({
            textDocument: { uri: document.uri },
            position: at("sources/support.md", 1),
        });
        const labels = paths.map((c) => c.label);
        for (const path of ["answer.md", "other.md", "sources/sla.md", "sources/support.md"]) {
            assert.ok(labels.includes(path), path);
        }
        const starts = await service.completion({
            textDocument: { uri: document.uri },
            position: at('"str": "Tickets"', 9),
        });
        assert.deepEqual(
            starts.map((c) => c.label),
            ["Tickets", "are answered", "answered", "within", "24 hours", "hours"],
        );
        assert.deepEqual(reads(), []);
    });

    it("a ref leading out of the root is refused without a read; a missing document is read once", () => {
        const outside = structuredClone(ANNOTATIONS);
        outside.annotations[0].sources[0].path = "../secret.md";
        outside.annotations[1].sources[0].path = "sources/gone.md";
        const text = JSON.stringify(outside, null, 2);
        const { service, document, reads } = opened({ "../secret.md": "Uptime is 99.9% per month.\n" }, text);
        const problems = items(service.diagnostics(document.uri, undefined));
        assert.deepEqual(
            problems.map((p) => p.code),
            ["path-outside-root", "unreadable-document"],
        );
        const read = reads();
        assert.deepEqual(read, [...CONFIG_LOOKUP, LOCK, `${ROOT}/answer.md`, `${ROOT}/sources/gone.md`]);
        assert.ok(!read.includes("/secret.md"), "nothing outside the root is read for a ref");
    });

    it("a lock is read by the lock reader only: once per check, never as a document, never found by the scan", async () => {
        const { service, document, reads, uri } = opened({ "answer.sourcecheck.lock.json": "{}" });
        const problems = items(service.diagnostics(document.uri, undefined));
        assert.deepEqual(
            problems.map((p) => p.code),
            ["lock-schema"],
        );
        const read = reads();
        assert.equal(read.filter((p) => p === LOCK).length, 1, "the lock, once");
        assert.deepEqual(
            read.filter((p) => p !== LOCK && !CONFIG_LOOKUP.includes(p)),
            [`${ROOT}/answer.md`, `${ROOT}/sources/sla.md`, `${ROOT}/sources/support.md`],
        );
        assert.deepEqual(await service.scan(), [`${ROOT}/${FILE}`], "a lock is not an annotation file");
        assert.ok(!service.documentLinks(document.uri).some((l) => l.target === uri("answer.sourcecheck.lock.json")));
        assert.deepEqual(service.citedDocuments().uris.sort(), [
            uri("answer.md"),
            uri("sources/sla.md"),
            uri("sources/support.md"),
        ]);
    });
});
