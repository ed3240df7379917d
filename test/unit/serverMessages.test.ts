/**
 * The language server in the editor's display language (docs/localization.md): a service started with
 * `locale: "zh-cn"` and the extension's zh-cn bundle (as the client passes it) publishes its
 * diagnostics and hovers in Chinese, the messages of every common code translated whole by their
 * code's templates; started in English (or with no bundle) it publishes the core's words unchanged,
 * as the CLI prints them. The workspace is on a temporary folder and each code is made by its input.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as l10n from "@vscode/l10n";
import type { Diagnostic, Hover, MarkupContent } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { moreProblemsNote } from "../../server/src/core/check";
import { unlockedMessage } from "../../server/src/core/lock";
import { midWordWarning, selfCitationWarning } from "../../server/src/core/refWarnings";
import { resolveInDocument } from "../../server/src/core/resolve";
import { SessionDocument } from "../../server/src/core/session";
import { problemMessage } from "../../server/src/features/messages";
import { createLanguageService } from "../../server/src/languageService";
import { translateFor } from "../../server/src/service/language";
import { NODE_HOST } from "../../server/src/workspace/nodeHost";
import { random } from "./repairCorpus";
import { makeSlipCase, SLIP_DOC, SLIP_KINDS } from "./repairSlips";

const repo = path.resolve(__dirname, "../../..");
const ZH = JSON.parse(fs.readFileSync(path.join(repo, "l10n/bundle.l10n.zh-cn.json"), "utf8")) as Record<
    string,
    string
>;

const DOC =
    "The median SCOP was 2.9 over the winter.\nA second line of evidence here, and evidence again.\nThird line.\n";
const ref = (line: number, start: string, endLine: number, end: string, file = "doc.md") => ({
    path: file,
    start: { line, str: start },
    end: { line: endLine, str: end },
});
const source = (r: ReturnType<typeof ref>) => ({ ...r, polarity: "supports", confidence: 0.9 });
const CLAIM = ref(1, "The median", 1, "2.9");

/** One annotation per code (and per wording of a code); the claim resolves in each. */
const ANNOTATIONS = [
    { claim: CLAIM, sources: [source(ref(2, "A second", 2, "evidence"))] }, // boundary-ambiguous
    { claim: CLAIM, sources: [source(ref(3, "A second", 3, "line."))] }, // boundary-not-found, found on line 2
    { claim: CLAIM, sources: [source(ref(1, "zzz", 1, "winter."))] }, // boundary-not-found, nowhere near
    { claim: CLAIM, sources: [source(ref(1, "The", 1, "winter.", "missing.md"))] }, // unreadable-document
    { claim: CLAIM, sources: [source(ref(9, "A", 9, "B"))] }, // line-out-of-range (5 lines)
    { claim: CLAIM, sources: [source(ref(5, "A", 5, "B", "one.md"))] }, // line-out-of-range (1 line)
    { claim: CLAIM, sources: [source(ref(3, "Third", 2, "here"))] }, // inverted-lines
    { claim: CLAIM, sources: [source(ref(2, "here", 2, "A second"))] }, // inverted-boundaries
    { claim: CLAIM, sources: [source(CLAIM)] }, // self-citation
    { claim: CLAIM, sources: [source(ref(2, "econd", 2, "line"))] }, // mid-word-boundary
    { claim: CLAIM, sources: [] }, // schema: a claim waiting for its sources
    { claim: CLAIM, sources: [{ ...source(CLAIM), start: { line: 1 } }] }, // schema: missing str
];
const CODES = [
    "boundary-ambiguous",
    "boundary-not-found",
    "unreadable-document",
    "line-out-of-range",
    "inverted-lines",
    "inverted-boundaries",
    "self-citation",
    "mid-word-boundary",
    "schema",
];

function started(
    initialize: { locale?: string; initializationOptions?: unknown },
    annotations: unknown[] = ANNOTATIONS,
) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sc-l10n-"));
    fs.writeFileSync(path.join(root, "doc.md"), DOC);
    fs.writeFileSync(path.join(root, "one.md"), "Only one line.");
    const open = new Map<string, TextDocument>();
    const service = createLanguageService({
        ...NODE_HOST,
        documents: { get: (uri) => open.get(uri) },
        logger: { error: (message) => assert.fail(message) },
        events: { changed() {}, removed() {}, refsCanFollow() {} },
    });
    service.initialize({ rootPath: root, ...initialize });
    const text = JSON.stringify({ annotations }, null, 2);
    const document = TextDocument.create(
        pathToFileURL(path.join(root, "answer.sourcecheck.json")).href,
        "sourcecheck",
        1,
        text,
    );
    open.set(document.uri, document);
    const { report, file } = service.diagnostics(document.uri, undefined);
    assert.ok(report.kind === "full" && file);
    const hoverAt = (needle: string) => {
        const at = text.indexOf(needle);
        assert.ok(at >= 0, needle);
        const hover = service.hover({ textDocument: { uri: document.uri }, position: document.positionAt(at + 1) });
        return ((hover as Hover | null)?.contents as MarkupContent | undefined)?.value ?? "";
    };
    /** The titles of the code actions at the needle's first character (quick fixes and refactors). */
    const actionsAt = (needle: string, nth = 0, only?: string[]) => {
        let at = -1;
        for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
        assert.ok(at >= 0, needle);
        const position = document.positionAt(at + 1);
        const range = { start: position, end: position };
        const actions = service.codeActions({
            textDocument: { uri: document.uri },
            range,
            context: { diagnostics: [], only },
        });
        return actions.map((a) => a.title);
    };
    return {
        diagnostics: report.items,
        problems: file.problems,
        hoverAt,
        actionsAt,
        dispose: () => fs.rmSync(root, { recursive: true }),
    };
}

const CJK = /[\u4e00-\u9fff]/;

/**
 * The English a translated message may keep: quoted text (paths, boundary strings, refs), field
 * names of the schema, and the command's name. Anything else of three letters or more is a part the
 * templates missed.
 */
function leftOverEnglish(message: string): string[] {
    const kept = message
        .replace(/"(?:[^"\\]|\\.)*"/g, "")
        .replace(/\{ line, str \}|\b(line|str|start|end|sources|claim)\b|SourceCheck/g, "");
    return kept.match(/[A-Za-z]{3,}/g) ?? [];
}

const codesOf = (diagnostics: Diagnostic[]) => [...new Set(diagnostics.map((d) => String(d.code)))].sort();

describe("the language server speaks the editor's language", () => {
    after(() => l10n.config({ contents: {} }));

    it("zh-cn: every common code's diagnostic is published in Chinese, whole, and its related places too", () => {
        const zh = started({ locale: "zh-cn", initializationOptions: { l10n: ZH } });
        try {
            assert.deepEqual(codesOf(zh.diagnostics), [...CODES].sort(), "the fixture makes each code");
            for (const d of zh.diagnostics) {
                assert.match(d.message, CJK, `${d.code}: ${d.message}`);
                assert.deepEqual(leftOverEnglish(d.message), [], `${d.code}: ${d.message}`);
            }
            const notFound = zh.diagnostics.find(
                (d) => d.message.includes('"A second"') && d.code === "boundary-not-found",
            );
            assert.equal(notFound?.message, '起点边界 "A second" 未出现在 "doc.md" 的第 3 行；在第 2 行找到 1 次');
            const singular = zh.diagnostics.find((d) => d.message.includes('"one.md"'));
            assert.equal(singular?.message, '起点行 5 超出范围："one.md" 只有 1 行');
            const ambiguous = zh.diagnostics.find((d) => d.code === "boundary-ambiguous");
            assert.deepEqual(
                ambiguous?.relatedInformation?.map((r) => r.message),
                ["第 1 处（共 2 处）：第 2 行，第 18 列", "第 2 处（共 2 处）：第 2 行，第 37 列"],
            );
        } finally {
            zh.dispose();
        }
    });

    it("zh-cn: hovers name the annotation, its refs and their problems in Chinese", () => {
        const zh = started({ locale: "zh-cn", initializationOptions: { l10n: ZH } });
        try {
            const claim = zh.hoverAt('"The median"');
            assert.match(claim, /^\*\*批注 1\*\* · 失效/);
            assert.match(claim, /\*\*声明\*\* · /);
            assert.match(claim, /\*\*来源 1\*\* · 支持 · 置信度 0\.9 · `doc\.md` 无法解析/);
            assert.match(
                claim,
                /- `boundary-ambiguous`: 终点边界 "evidence" 在 "doc\.md" 的第 2 行出现了 2 次（第 18, 37 列）；请延长它，直到它只出现一次/,
            );
            assert.match(zh.hoverAt('"one.md"'), /"one\.md" 的第 5 行|起点行 5 超出范围/);
        } finally {
            zh.dispose();
        }
    });

    it("English (locale en, or no bundle): the core's words, as the CLI prints them, in diagnostics and hovers", () => {
        for (const initialize of [{ locale: "en", initializationOptions: { l10n: ZH } }, { locale: "zh-cn" }, {}]) {
            const en = started(initialize);
            try {
                assert.deepEqual(codesOf(en.diagnostics), [...CODES].sort());
                for (const d of en.diagnostics) {
                    assert.doesNotMatch(d.message, CJK, d.message);
                    const problem = en.problems.find((p) => p.code === d.code && d.message.startsWith(p.message));
                    assert.ok(problem, `${d.code}: ${d.message} is the core's message`);
                }
                const claim = en.hoverAt('"The median"');
                assert.match(claim, /^\*\*Annotation 1\*\* · broken/);
                assert.match(claim, /\*\*Source 1\*\* · supports · confidence 0\.9 · `doc\.md` does not resolve/);
                assert.doesNotMatch(claim, CJK);
            } finally {
                en.dispose();
            }
        }
    });
});

/**
 * For the code actions: a source written a line too low (its only reading is on line 2: a certain
 * repair), and a valid one whose boundaries are longer than they need be (to shorten).
 */
const ACTIONABLE = [
    { claim: CLAIM, sources: [source(ref(3, "A second", 3, "again."))] },
    { claim: CLAIM, sources: [source(ref(2, "A second line of evidence", 2, "and evidence again."))] },
];
const SHIFTED = ['"A second"', 0] as const;
const LONG = ['"A second line of evidence"', 0] as const;
const FIX_ALL = ["source.fixAll.sourcecheck"];

describe("the language server's code actions speak the editor's language", () => {
    after(() => l10n.config({ contents: {} }));

    it("zh-cn: the quick fixes and the annotation's actions are titled in Chinese, quoted text kept", () => {
        const zh = started({ locale: "zh-cn", initializationOptions: { l10n: ZH } }, ACTIONABLE);
        try {
            const titles = [
                ...zh.actionsAt(...SHIFTED),
                ...zh.actionsAt(...LONG),
                ...zh.actionsAt(...SHIFTED, FIX_ALL),
            ];
            assert.deepEqual(titles, [
                // The core's evidence, matched by its template and said again with its numbers.
                '修复该引用（其行号已移动；30 行范围内两个边界同时出现的唯一一行：第 2 行）：doc.md:2:1-2:52 "A second line of evidence here, and evidence again."',
                "修复此文件中所有确定的 SourceCheck 修复",
                "删除批注 1",
                "删除批注 1 的来源 1",
                "使批注 1 的来源 1 反驳该声明",
                "将批注 1 的来源 1 的置信度设为 0.7",
                "将批注 1 的来源 1 的置信度设为 0.5",
                '缩短为易读且唯一的边界："A second" … "again."',
                "删除批注 2",
                "删除批注 2 的来源 1",
                "使批注 2 的来源 1 反驳该声明",
                "将批注 2 的来源 1 的置信度设为 0.7",
                "将批注 2 的来源 1 的置信度设为 0.5",
                "修复此文件中所有确定的 SourceCheck 修复（1 个引用）",
            ]);
            for (const title of titles) {
                assert.match(title, CJK, title);
                assert.deepEqual(leftOverEnglish(title.replace(/doc\.md:[\d:-]+/, "")), [], title);
            }
        } finally {
            zh.dispose();
        }
    });

    it("English (locale en, or no bundle): the titles as they always were", () => {
        for (const initialize of [{ locale: "en", initializationOptions: { l10n: ZH } }, { locale: "zh-cn" }, {}]) {
            const en = started(initialize, ACTIONABLE);
            try {
                const titles = [
                    ...en.actionsAt(...SHIFTED),
                    ...en.actionsAt(...LONG),
                    ...en.actionsAt(...SHIFTED, FIX_ALL),
                ];
                assert.deepEqual(titles, [
                    'Repair the ref (its lines shifted; the only line within 30 where both boundaries occur: line 2): doc.md:2:1-2:52 "A second line of evidence here, and evidence again."',
                    "Fix all certain SourceCheck repairs in this file",
                    "Remove annotation 1",
                    "Remove source 1 of annotation 1",
                    "Make source 1 of annotation 1 refutes the claim",
                    "Set the confidence of source 1 of annotation 1 to 0.7",
                    "Set the confidence of source 1 of annotation 1 to 0.5",
                    'Shorten to readable unique boundaries: "A second" … "again."',
                    "Remove annotation 2",
                    "Remove source 1 of annotation 2",
                    "Make source 1 of annotation 2 refutes the claim",
                    "Set the confidence of source 1 of annotation 2 to 0.7",
                    "Set the confidence of source 1 of annotation 2 to 0.5",
                    "Fix all certain SourceCheck repairs in this file (1 ref)",
                ]);
            } finally {
                en.dispose();
            }
        }
    });
});

describe("the certain repairs' evidence, as the core words it, is said whole in Chinese", () => {
    after(() => l10n.config({ contents: {} }));

    /** The titles of the preferred (certain) repairs of a zh-cn service, one per slip case drawn. */
    function certainTitles(perKind: number): string[] {
        const titles: string[] = [];
        for (const [k, kind] of SLIP_KINDS.entries()) {
            const next = random(4500 + k);
            for (let drawn = 0, attempts = 0; drawn < perKind && attempts < perKind * 200; attempts++) {
                const c = makeSlipCase(kind, next);
                if (!c) continue;
                drawn++;
                const root = fs.mkdtempSync(path.join(os.tmpdir(), "sc-l10n-slip-"));
                try {
                    fs.mkdirSync(path.join(root, path.dirname(SLIP_DOC)), { recursive: true });
                    fs.writeFileSync(path.join(root, SLIP_DOC), c.lines.join("\n"));
                    const source = { ...c.broken, polarity: "supports", confidence: 0.9 };
                    const text = JSON.stringify({ annotations: [{ claim: c.broken, sources: [source] }] }, null, 2);
                    const uri = pathToFileURL(path.join(root, "a.sourcecheck.json")).href;
                    const document = TextDocument.create(uri, "sourcecheck", 1, text);
                    const service = createLanguageService({
                        ...NODE_HOST,
                        documents: { get: (u) => (u === uri ? document : undefined) },
                        logger: { error: (message) => assert.fail(message) },
                        events: { changed() {}, removed() {}, refsCanFollow() {} },
                    });
                    service.initialize({ rootPath: root, locale: "zh-cn", initializationOptions: { l10n: ZH } });
                    service.diagnostics(uri, undefined);
                    const range = { start: { line: 0, character: 0 }, end: document.positionAt(text.length) };
                    const actions = service.codeActions({
                        textDocument: { uri },
                        range,
                        context: { diagnostics: [], only: ["quickfix"] },
                    });
                    titles.push(...actions.filter((a) => a.isPreferred).map((a) => a.title));
                } finally {
                    fs.rmSync(root, { recursive: true, force: true });
                }
            }
        }
        return titles;
    }

    it("zh-cn: every drawn slip's certain repair is titled in Chinese, the span's text aside", () => {
        const titles = certainTitles(3);
        assert.ok(titles.length >= SLIP_KINDS.length * 2, `${titles.length} certain repairs`);
        for (const title of titles) {
            const head = title.slice(0, title.indexOf(`）：${SLIP_DOC}:`));
            assert.match(head, /^修复该引用（/, title);
            assert.deepEqual(leftOverEnglish(head), [], title);
        }
    });
});

describe("each code's templates match the core's own wordings", () => {
    after(() => l10n.config({ contents: {} }));

    /** Each wording the core has for a code, made by the core itself. */
    function wordings(): { code: string; message: string }[] {
        const near = new SessionDocument("near.md", "x\nalpha\nalpha alpha\nb\nalpha\nalpha\nc\n");
        const errorsOf = (document: SessionDocument, str: string, line: number) => {
            const r = resolveInDocument(document, { path: document.path, start: { line, str }, end: { line, str } });
            return r.valid ? [] : r.errors.map((e) => ({ code: e.code, message: e.message }));
        };
        const words = new SessionDocument("w.md", "catalog of logs\nsecond line\n");
        const claim = {
            path: "w.md",
            startOffset: 0,
            endOffset: 20,
            range: { start: { line: 1, column: 0 }, end: { line: 2, column: 4 } },
        };
        return [
            ...errorsOf(near, "alpha", 1), // "; found on lines 2, 3, 5 and more nearby"
            ...errorsOf(new SessionDocument("a.md", "x\nalpha alpha\n"), "alpha", 1), // "; found 2 times on line 2"
            ...errorsOf(new SessionDocument("b.md", "x\nalpha\ny\nalpha\n"), "alpha", 1), // "; found on lines 2 and 4"
            ...errorsOf(new SessionDocument("c.md", `x\n${"a ".repeat(150)}`), "a", 2), // "first at columns … …"
            ...[
                midWordWarning(words, 1, 7),
                midWordWarning(words, 0, 6),
                midWordWarning(words, 1, 3),
                selfCitationWarning(claim, { path: "./w.md", startOffset: 2, endOffset: 5 }),
            ].map((w) => ({ code: w?.code ?? "none", message: w?.message ?? "none" })),
            { code: "unlocked", message: unlockedMessage("a.sourcecheck.lock.json") },
            { code: "unlocked", message: unlockedMessage(undefined) },
            moreProblemsNote(1),
            moreProblemsNote(1234),
        ];
    }

    it("zh-cn: each is said whole in Chinese", () => {
        const t = translateFor("zh-cn", { l10n: ZH });
        const all = wordings();
        assert.deepEqual([...new Set(all.map((w) => w.code))].sort(), [
            "boundary-ambiguous",
            "boundary-not-found",
            "mid-word-boundary",
            "more-problems",
            "self-citation",
            "unlocked",
        ]);
        const variants = ["more nearby", "found 2 times", "lines 2 and 4", "first at columns", "starts and ends"];
        variants.push("lines 1-2", "(ref {", "no lock", "1 more problem ", "1,234 more problems");
        for (const variant of variants)
            assert.ok(
                all.some((w) => w.message.includes(variant)),
                variant,
            );
        for (const { code, message } of all) {
            const said = problemMessage(t, code, message);
            assert.match(said, CJK, `${code}: ${message}`);
            assert.deepEqual(leftOverEnglish(said), [], `${code}: ${message} -> ${said}`);
        }
    });

    it("a message no template of its code matches stays English, never empty", () => {
        const t = translateFor("zh-cn", { l10n: ZH });
        const odd = "sources/x.md is a directory, not a text file";
        assert.equal(problemMessage(t, "unreadable-document", odd), odd);
        assert.equal(problemMessage(t, "no-such-code", 'no document has the path "a"'), 'no document has the path "a"');
    });
});
