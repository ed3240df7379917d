/**
 * The editor's preferred quick fix and `sourcecheck repair --write` make the same repair
 * (docs/repair.md; DESIGN's one engine on every front end): one test drives both on every slip
 * case of repairSlips.ts it draws, with no lock and no history on either side.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Ref } from "../../server/src/core";
import { createLanguageService } from "../../server/src/languageService";
import { NODE_HOST } from "../../server/src/workspace/nodeHost";
import { runCli } from "./cliRun";
import { random } from "./repairCorpus";
import { makeSlipCase, SLIP_DOC, SLIP_KINDS, type SlipCase } from "./repairSlips";

const PER_KIND = Number(process.env.SOURCECHECK_AGREE_CASES ?? 12);
const FILE = "answer.sourcecheck.json";

function annotationText(c: SlipCase): string {
    const meant: Ref = { ...c.broken, [c.side]: { ...c.broken[c.side], str: c.meant } };
    return `${JSON.stringify({ annotations: [{ claim: c.broken, sources: [{ ...meant, polarity: "supports", confidence: 0.9 }] }] }, null, 2)}\n`;
}

function claimOf(text: string): Ref {
    return JSON.parse(text).annotations[0].claim;
}

/** The claim after the editor's preferred quick fix, or as it was when none is preferred. */
function editorRepair(root: string, text: string): Ref {
    const document = TextDocument.create(pathToFileURL(path.join(root, FILE)).href, "sourcecheck", 1, text);
    const service = createLanguageService({
        ...NODE_HOST,
        documents: { get: (uri) => (uri === document.uri ? document : undefined) },
        logger: { error: (message) => assert.fail(message) },
        events: { changed() {}, removed() {}, refsCanFollow() {} },
        fetchPage: async () => assert.fail("no page is fetched"),
    });
    service.initialize({ rootPath: root });
    service.diagnostics(document.uri, undefined);
    const whole = { start: { line: 0, character: 0 }, end: document.positionAt(text.length) };
    const actions = service.codeActions({
        textDocument: { uri: document.uri },
        range: whole,
        context: { diagnostics: [], only: ["quickfix"] },
    });
    const preferred = actions.filter((a) => a.isPreferred && (a.data as { kind?: string })?.kind === "repair");
    assert.ok(preferred.length <= 1, "at most one preferred repair of the one broken ref");
    if (preferred.length === 0) return claimOf(text);
    const edits = preferred[0].edit?.changes?.[document.uri] ?? [];
    return claimOf(TextDocument.applyEdits(document, edits));
}

describe("repair: the editor's preferred quick fix and `repair --write` agree", () => {
    // A CLI process per case: on a loaded machine this outlasts mocha's 20 s default (no timing is asserted).
    it("on every drawn slip case, both repair the same way (or neither does)", function () {
        this.timeout(240_000);
        let cases = 0;
        let repaired = 0;
        for (const [k, kind] of SLIP_KINDS.entries()) {
            const next = random(9100 + k);
            let drawn = 0;
            for (let attempts = 0; drawn < PER_KIND && attempts < PER_KIND * 200; attempts++) {
                const c = makeSlipCase(kind, next);
                if (!c) continue;
                drawn++;
                const root = fs.mkdtempSync(path.join(os.tmpdir(), "sc-agree-"));
                try {
                    fs.mkdirSync(path.join(root, path.dirname(SLIP_DOC)), { recursive: true });
                    fs.writeFileSync(path.join(root, SLIP_DOC), c.lines.join("\n"));
                    const text = annotationText(c);
                    fs.writeFileSync(path.join(root, FILE), text);
                    const editor = editorRepair(root, text);
                    runCli(["repair", "--write", "--root", root, FILE], { cwd: root });
                    const cli = claimOf(fs.readFileSync(path.join(root, FILE), "utf8"));
                    assert.deepEqual(editor, cli, `${kind}: ${JSON.stringify(c.broken)}`);
                    cases++;
                    if (JSON.stringify(cli) !== JSON.stringify(c.broken)) repaired++;
                } finally {
                    fs.rmSync(root, { recursive: true, force: true });
                }
            }
        }
        console.log(`      ${cases} cases: ${repaired} repaired the same way by both, the rest left alone by both`);
        assert.ok(cases >= PER_KIND * SLIP_KINDS.length * 0.9);
        assert.ok(repaired >= cases * 0.9, `only ${repaired} of ${cases} repaired`);
    });
});
