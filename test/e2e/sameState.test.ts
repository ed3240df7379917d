// Issue 34.4: the SourceCheck view, the Problems panel and the decorations re-derive from one state
// after every change: an undone ref update, a cited file changed on disk, a cited file deleted. Each
// is checked against the suite's own resolver (demo.ts), never against what the extension said before.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { ViewSnapshot } from "../../client/src/sourceCheckView";
import {
    annotationsUri,
    cleanSlate,
    occurrences,
    prepare,
    type Ref,
    resolveRef,
    restoreText,
    sourcecheckDiagnostics,
    tokenRange,
} from "./demo";
import { waitFor, wsUri } from "./harness";

type Verdict = "supported" | "refuted" | "contested" | "broken";
interface Annotation {
    claim: Ref;
    sources: (Ref & { polarity: string })[];
}
interface PlainRange {
    startLine: number;
    startCharacter: number;
    endLine: number;
    endCharacter: number;
}
interface Applied {
    claimVerdicts: Record<Verdict, PlainRange[]>;
    brokenLines: number[];
}
interface RefUpdateLog {
    prompts: { message: string; answer: string | undefined }[];
    notices: string[];
}

const refUpdates = (arg?: { answer: string | null }) =>
    vscode.commands.executeCommand<RefUpdateLog>("sourcecheck._refUpdates", arg);

/**
 * The suite's resolver over what the CLI would read: an unsaved buffer, else the file on disk (a
 * deleted file resolves nothing, whatever a clean buffer kept).
 */
async function resolved(ref: Ref) {
    const uri = wsUri(ref.path);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open?.isDirty) return resolveRef(ref);
    if (!fs.existsSync(uri.fsPath)) return undefined;
    const lines = fs.readFileSync(uri.fsPath, "utf8").replace(/\r\n?/g, "\n").split("\n");
    if (ref.start.line < 1 || ref.end.line > lines.length || ref.start.line > ref.end.line) return undefined;
    const s = occurrences(lines[ref.start.line - 1], ref.start.str);
    const e = occurrences(lines[ref.end.line - 1], ref.end.str);
    if (s.length !== 1 || e.length !== 1) return undefined;
    const end = e[0] + ref.end.str.length;
    if (ref.start.line === ref.end.line && (s[0] > e[0] || s[0] + ref.start.str.length > end)) return undefined;
    return { range: new vscode.Range(ref.start.line - 1, s[0], ref.end.line - 1, end) };
}

async function verdictOf(annotation: Annotation): Promise<Verdict> {
    if (!Array.isArray(annotation.sources) || annotation.sources.length === 0) return "broken";
    for (const ref of [annotation.claim, ...annotation.sources]) if (!(await resolved(ref))) return "broken";
    const polarities = new Set(annotation.sources.map((s) => s.polarity));
    if (polarities.has("supports") && polarities.has("refutes")) return "contested";
    return polarities.has("refutes") ? "refuted" : "supported";
}

interface Expected {
    verdicts: Verdict[];
    /** Each claim in answer.md by the worst verdict of the annotations citing it: "line:from-to". */
    claims: Record<Verdict, string[]>;
}

const WORST_FIRST: Verdict[] = ["broken", "refuted", "contested", "supported"];
const key = (r: PlainRange) => `${r.startLine}:${r.startCharacter}-${r.endLine}:${r.endCharacter}`;

/** What every surface must show, from the annotation file's text and the documents as they are now. */
async function expected(): Promise<Expected> {
    const doc = await vscode.workspace.openTextDocument(annotationsUri());
    const annotations = (JSON.parse(doc.getText()) as { annotations: Annotation[] }).annotations;
    const verdicts = await Promise.all(annotations.map(verdictOf));
    const worst = new Map<string, Verdict>();
    for (const [i, a] of annotations.entries()) {
        if (a.claim.path !== "answer.md") continue;
        const claim = await resolved(a.claim);
        if (!claim) continue;
        const k = key({
            startLine: claim.range.start.line,
            startCharacter: claim.range.start.character,
            endLine: claim.range.end.line,
            endCharacter: claim.range.end.character,
        });
        const before = worst.get(k);
        if (!before || WORST_FIRST.indexOf(verdicts[i]) < WORST_FIRST.indexOf(before)) worst.set(k, verdicts[i]);
    }
    const claims: Record<Verdict, string[]> = { broken: [], refuted: [], contested: [], supported: [] };
    for (const [k, v] of worst) claims[v].push(k);
    for (const v of WORST_FIRST) claims[v].sort();
    return { verdicts, claims };
}

/** What the view, Problems and the decorations on answer.md show now. */
async function shown(): Promise<{ verdicts: Verdict[]; broken: number[]; claims: Record<Verdict, string[]> }> {
    const view = await vscode.commands.executeCommand<ViewSnapshot>("sourcecheck._viewSnapshot");
    const file = view.files.find((f) => f.uri === annotationsUri().toString());
    const verdicts = (file?.annotations ?? []).sort((a, b) => a.index - b.index).map((a) => a.verdict as Verdict);
    // Problems: the annotations holding an error diagnostic.
    const doc = await vscode.workspace.openTextDocument(annotationsUri());
    const count = (JSON.parse(doc.getText()) as { annotations: unknown[] }).annotations.length;
    const errors = sourcecheckDiagnostics(annotationsUri()).filter(
        (d) => d.severity === vscode.DiagnosticSeverity.Error,
    );
    const broken: number[] = [];
    for (let i = 0; i < count; i++) {
        const range = tokenRange(doc, ["annotations", i]);
        if (errors.some((d) => range.contains(d.range))) broken.push(i);
    }
    const applied = await vscode.commands.executeCommand<Applied>(
        "sourcecheck._decorationsForEditor",
        wsUri("answer.md").toString(),
    );
    const claims = Object.fromEntries(WORST_FIRST.map((v) => [v, applied.claimVerdicts[v].map(key).sort()])) as Record<
        Verdict,
        string[]
    >;
    return { verdicts, broken, claims };
}

/** Waits until the three surfaces agree with the files as they are now; returns what they show. */
async function agree(what: string): Promise<Expected> {
    // Decorations are drawn in visible editors only: show the answer.
    const answer = wsUri("answer.md");
    if (!vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === answer.toString()))
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(answer), { preview: false });
    let want = await expected();
    await waitFor(
        `the view, Problems and the decorations to agree ${what}`,
        async () => {
            want = await expected();
            const now = await shown();
            return {
                view: JSON.stringify(now.verdicts) === JSON.stringify(want.verdicts),
                problems:
                    JSON.stringify(now.broken) ===
                    JSON.stringify(want.verdicts.flatMap((v, i) => (v === "broken" ? [i] : []))),
                decorations: JSON.stringify(now.claims) === JSON.stringify(want.claims),
                now,
                want,
            };
        },
        (s) => s.view && s.problems && s.decorations,
        20_000,
    );
    return want;
}

describe("one state: the view, Problems and decorations after every change", () => {
    before(prepare);
    afterEach(async () => {
        await refUpdates({ answer: "Not now" });
        await cleanSlate();
    });

    it("after “SourceCheck: Undo the Last Ref Update”", async () => {
        const settings = vscode.workspace.getConfiguration("sourcecheck");
        await settings.update("updateRefsOnEdit", "always", vscode.ConfigurationTarget.Workspace);
        const annotations = await vscode.workspace.openTextDocument(annotationsUri());
        const original = annotations.getText();
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        const editor = await vscode.window.showTextDocument(answer, { preview: false });
        try {
            const start = await agree("on the demo");
            assert.ok(start.verdicts.includes("supported"));
            const notices = (await refUpdates()).notices.length;
            assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), "Draft.\n\n")));
            await waitFor(
                "the refs into answer.md to follow",
                () => refUpdates(),
                (l) => l.notices.length > notices,
                15_000,
            );
            const followed = await agree("once the refs followed the edit");
            assert.deepEqual(followed.verdicts, start.verdicts, "following keeps every verdict");
            const undone = await vscode.commands.executeCommand<{ ok: boolean; message: string }>(
                "sourcecheck.undoRefUpdate",
            );
            assert.ok(undone.ok, undone.message);
            // The refs are back where they were, two lines above their text: the claims are broken.
            const after = await agree("after the undo");
            assert.equal(after.verdicts[0], "broken", "annotation 1's claim is two lines off now");
            assert.notDeepEqual(after.verdicts, start.verdicts);
        } finally {
            await settings.update("updateRefsOnEdit", undefined, vscode.ConfigurationTarget.Workspace);
            await refUpdates({ answer: "Not now" });
            await cleanSlate();
            await restoreText(await vscode.workspace.openTextDocument(annotationsUri()), original);
        }
        await agree("once the demo is back");
    });

    it("after a cited file changed on disk", async () => {
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        await vscode.window.showTextDocument(answer, { preview: false });
        const survey = wsUri("sources/survey-zh.md").fsPath;
        const text = fs.readFileSync(survey, "utf8");
        const start = await agree("on the demo");
        assert.equal(start.verdicts[2], "supported", "annotation 3 cites the survey");
        try {
            // Another program (a terminal, git) rewrites the survey: the words annotation 3 cites go.
            const changed = text.replace("多数团队", "少数团队");
            assert.notEqual(changed, text);
            fs.writeFileSync(survey, changed);
            const after = await agree("after the change on disk");
            assert.equal(after.verdicts[2], "broken", "annotation 3's source text is gone");
        } finally {
            fs.writeFileSync(survey, text);
        }
        const back = await agree("once the file is back");
        assert.deepEqual(back.verdicts, start.verdicts);
    });

    it("after a cited file was deleted", async () => {
        const answer = await vscode.workspace.openTextDocument(wsUri("answer.md"));
        await vscode.window.showTextDocument(answer, { preview: false });
        const survey = wsUri("sources/survey-zh.md");
        const bytes = fs.readFileSync(survey.fsPath);
        const start = await agree("on the demo");
        assert.equal(start.verdicts[2], "supported", "annotation 3 cites the survey");
        try {
            fs.rmSync(survey.fsPath);
            const after = await agree("after the deletion");
            assert.equal(after.verdicts[2], "broken", "annotation 3's source is gone");
        } finally {
            fs.writeFileSync(survey.fsPath, bytes);
        }
        const back = await agree("once the file is back");
        assert.deepEqual(back.verdicts, start.verdicts);
    });
});
