/**
 * `sourcecheck render` (docs/render.md): every piece of content escaped, nothing external, and the
 * page rendered by a real Chromium from disk with no script run and no request beyond the file.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { escapeHtml, renderHtml } from "../../server/src/render/html";
import { type CliRun, runCli } from "./cliRun";

const repo = path.resolve(__dirname, "../../..");
// `npm test` installs Chromium before this suite and says where (scripts/test-plan.mjs).
const CHROMIUM = process.env.SOURCECHECK_CHROMIUM ?? "/usr/bin/chromium";

function render(args: string[], cwd: string): CliRun {
    return runCli(["render", ...args], { cwd });
}

/** A workspace whose every string is hostile markup: paths, cited text, messages, the annotation file's name. */
function hostileWorkspace(): { dir: string; file: string } {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-render-")));
    const script = `<script>document.title="pwned";window.pwned=1</script>`;
    const image = `<img src="http://127.0.0.1:9/x.png" onerror="window.pwned=2">`;
    fs.writeFileSync(
        path.join(dir, "answer.md"),
        `The claim ${script} is here.\nSecond line with ${image} & "quotes".\n`,
    );
    fs.writeFileSync(path.join(dir, "src<b>.md"), `Evidence: ${script} end.\n`);
    const annotations = [
        {
            claim: { path: "answer.md", start: { line: 1, str: "The claim" }, end: { line: 1, str: "is here." } },
            sources: [
                {
                    path: "src<b>.md",
                    start: { line: 1, str: "Evidence:" },
                    end: { line: 1, str: "end." },
                    polarity: "supports",
                    confidence: 0.9,
                },
                {
                    path: "src<b>.md",
                    start: { line: 1, str: "<script>nope" },
                    end: { line: 1, str: "end." },
                    polarity: "refutes",
                    confidence: 0.4,
                },
            ],
        },
        {
            claim: { path: "answer.md", start: { line: 2, str: "Second" }, end: { line: 2, str: '"quotes".' } },
            sources: [
                {
                    path: "src<b>.md",
                    start: { line: 1, str: "Evidence:" },
                    end: { line: 1, str: "end." },
                    polarity: "refutes",
                    confidence: 0.7,
                },
            ],
        },
    ];
    const file = "<x>.sourcecheck.json";
    fs.writeFileSync(path.join(dir, file), JSON.stringify({ annotations }, null, 2));
    return { dir, file };
}

describe("render: escaping and self-containment", () => {
    it("escapes every character that could start markup", () => {
        assert.equal(
            escapeHtml(`<a href="x" title='y'>&</a>`),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
        );
    });

    it("writes one page with no script, no external resource, and all content as text", () => {
        const { dir, file } = hostileWorkspace();
        const run = render([file], dir);
        assert.equal(run.status, 1, "a source that does not resolve: exit 1, as check");
        assert.equal(run.stderr, "sourcecheck render: 1 annotation with broken refs\n");
        const html = run.stdout;
        // The page as a browser parses it: only our own elements, no handler, nothing that loads.
        const elements = new Set<string>();
        const walk = (node: DefaultTreeAdapterMap["parentNode"]) => {
            for (const child of node.childNodes) {
                if (!("tagName" in child)) continue;
                elements.add(child.tagName);
                for (const attribute of child.attrs) {
                    assert.doesNotMatch(attribute.name, /^on|^src$|^srcset$/i, `${child.tagName} ${attribute.name}`);
                    if (attribute.name === "href") assert.match(attribute.value, /^#claim-\d+$/);
                }
                walk(child.tagName === "template" ? (child as DefaultTreeAdapterMap["template"]).content : child);
            }
        };
        walk(parse(html));
        for (const tag of ["script", "img", "link", "iframe", "object", "embed", "svg", "base", "form"])
            assert.ok(!elements.has(tag), `no <${tag}>`);
        const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
        assert.doesNotMatch(style, /url\(|@import/i, "the style loads nothing");
        assert.match(html, /&lt;script&gt;document\.title=&quot;pwned&quot;/);
        assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
        assert.match(html, /src&lt;b&gt;\.md/, "paths escaped");
        assert.match(html, /&lt;x&gt;\.sourcecheck\.json/, "the file name escaped");
        assert.match(html, /boundary-not-found/, "the broken source's error is shown");
    });

    it("numbers claims, gives each its verdict, and marks the claims in the answer", () => {
        const html = renderHtml({
            title: "t",
            generator: "g",
            documents: [{ path: "a.md", content: "one two three\nfour five" }],
            report: {
                ok: true,
                exitCode: 0,
                validCount: 1,
                invalidCount: 0,
                schemaErrors: [],
                entries: [
                    {
                        index: 0,
                        valid: true,
                        verdict: "supported",
                        claim: {
                            valid: true,
                            path: "a.md",
                            text: "two three\nfour",
                            range: { start: { line: 1, column: 4 }, end: { line: 2, column: 4 } },
                        },
                        sources: [
                            {
                                valid: true,
                                path: "s.md",
                                text: "x",
                                range: { start: { line: 1, column: 0 }, end: { line: 1, column: 1 } },
                                polarity: "supports",
                                confidence: 1,
                            },
                            {
                                valid: true,
                                path: "s.md",
                                text: "y",
                                range: { start: { line: 1, column: 0 }, end: { line: 1, column: 1 } },
                                polarity: "refutes",
                                confidence: 0.5,
                            },
                        ],
                    },
                ],
            },
        });
        assert.match(
            html,
            /one <a class="number contested" href="#claim-1">1<\/a><mark class="claim contested"[^>]*>two three\nfour<\/mark> five/,
        );
        assert.match(html, /id="claim-1"/);
        assert.match(html, /confidence 0\.50/);
        assert.match(html, /lines 1–2/);
    });

    it("finds the document root as check does: the demo renders from the repository root", () => {
        const run = render(["examples/demo/answer.sourcecheck.json"], repo);
        assert.equal(run.status, 1, "the demo has broken refs");
        assert.match(run.stdout, /Offline sync/);
        assert.equal((run.stdout.match(/class="annotation /g) ?? []).length, 8);
        assert.equal((run.stdout.match(/class="annotation broken"/g) ?? []).length, 4);
    });

    it("writes -o atomically and refuses a missing file with one line, exit 2", () => {
        const { dir, file } = hostileWorkspace();
        const written = render([file, "-o", "out.html"], dir);
        assert.equal(written.status, 1);
        assert.equal(written.stdout, "");
        assert.equal(written.stderr, "sourcecheck render: wrote out.html (1 annotation with broken refs)\n");
        assert.match(fs.readFileSync(path.join(dir, "out.html"), "utf8"), /^<!doctype html>/);
        const missing = render(["nope.json"], dir);
        assert.equal(missing.status, 2);
        assert.equal(missing.stderr, "sourcecheck: cannot read nope.json: no such file\n");
    });
});

describe("render: in a real Chromium", function () {
    this.timeout(90_000);

    it("shows the content as text, runs no script and requests nothing but the page", async () => {
        assert.ok(
            fs.existsSync(CHROMIUM),
            `${CHROMIUM} is needed for this test (npm test installs it: scripts/test-plan.mjs)`,
        );
        const { chromium } = await import("playwright-core");
        const { dir, file } = hostileWorkspace();
        assert.equal(render([file, "-o", "report.html"], dir).status, 1);
        const page = pathToFileURL(path.join(dir, "report.html")).href;
        const profile = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-chromium-"));
        const context = await chromium.launchPersistentContext(profile, {
            executablePath: CHROMIUM,
            headless: true,
            args: [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        });
        try {
            const tab = context.pages()[0] ?? (await context.newPage());
            const requested: string[] = [];
            // Every request is recorded; anything but the page itself is refused before it leaves.
            await tab.route("**/*", (route) => {
                const url = route.request().url();
                requested.push(url);
                return url === page ? route.continue() : route.abort();
            });
            const errors: string[] = [];
            tab.on("pageerror", (error) => errors.push(String(error)));
            await tab.goto(page, { waitUntil: "load" });
            const text = (await tab.textContent("body")) ?? "";
            assert.match(text, /<script>document\.title="pwned";window\.pwned=1<\/script>/, "the cited script is text");
            assert.match(text, /<img src="http:\/\/127\.0\.0\.1:9\/x\.png"/, "the image tag is text");
            assert.equal(await tab.title(), `SourceCheck: ${file}`);
            assert.equal(await tab.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned), undefined);
            assert.equal(await tab.locator("script").count(), 0);
            assert.equal(await tab.locator("img").count(), 0);
            assert.equal(await tab.locator("mark.claim").count(), 2, "both claims marked in the answer");
            assert.equal(await tab.locator(".annotation.contested").count(), 0);
            assert.equal(await tab.locator(".annotation.broken").count(), 1, "the claim with a missing boundary");
            assert.equal(await tab.locator(".source.broken-ref .error").count(), 1, "its broken ref stands out");
            assert.deepEqual(requested, [page], "no request but the page itself");
            assert.deepEqual(errors, []);
        } finally {
            await context.close();
            fs.rmSync(profile, { recursive: true, force: true });
        }
    });
});

describe("render: exit codes and people's numbering", () => {
    function workspace(annotations: unknown): { dir: string; file: string } {
        const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-render-exit-")));
        fs.writeFileSync(path.join(dir, "answer.md"), "Alpha beta gamma.\nDelta epsilon zeta.\n");
        fs.writeFileSync(path.join(dir, "a.sourcecheck.json"), JSON.stringify({ annotations }));
        return { dir, file: "a.sourcecheck.json" };
    }
    const claim = { path: "answer.md", start: { line: 1, str: "Alpha" }, end: { line: 1, str: "gamma." } };
    const source = {
        path: "answer.md",
        start: { line: 2, str: "Delta" },
        end: { line: 2, str: "zeta." },
        polarity: "supports",
        confidence: 0.9,
    };

    it("exits 0 on a clean file and says where it wrote", () => {
        const { dir, file } = workspace([{ claim, sources: [source] }]);
        const run = render([file, "-o", "page.html"], dir);
        assert.equal(run.status, 0);
        assert.equal(run.stderr, "sourcecheck render: wrote page.html (every ref resolves)\n");
    });

    it("exits 2 on schema errors, and shows each pointer with its 1-based reading", () => {
        const { dir, file } = workspace([
            { claim, sources: [source] },
            { claim, sources: "nope" },
        ]);
        const run = render([file], dir);
        assert.equal(run.status, 2);
        // The machine pointer stays 0-based; the person reads annotation 2 beside it.
        assert.match(run.stdout, /<code>\/annotations\/1\/sources<\/code> \(annotation 2, sources\)/);
        assert.match(run.stdout, /id="claim-2"/);
    });

    it("does not repeat an ambiguity's columns after its message", () => {
        const ambiguous = { ...source, start: { line: 2, str: "e" } };
        const { dir, file } = workspace([{ claim, sources: [ambiguous] }]);
        const run = render([file], dir);
        assert.equal(run.status, 1);
        assert.equal((run.stdout.match(/\(columns /g) ?? []).length, 1, run.stdout);
    });
});

describe("render: refuted and broken drawn differently", () => {
    it("in colour and in shape, in light and dark schemes", () => {
        const html = renderHtml({
            title: "t",
            generator: "g",
            report: {
                ok: true,
                exitCode: 0,
                validCount: 0,
                invalidCount: 0,
                schemaErrors: [],
                entries: [],
            },
            documents: [],
        });
        const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
        const rule = (selector: string) =>
            new RegExp(`${selector.replace(".", "\\.")} \\{([^}]*)\\}`).exec(style)?.[1] ?? "";
        const refuted = rule("mark.refuted");
        const broken = rule("mark.broken");
        assert.match(refuted, /line-through/, "refuted claims are struck through");
        assert.match(broken, /wavy/, "broken claims get a wavy underline");
        assert.doesNotMatch(refuted, /wavy/);
        // The colour variables differ in both schemes.
        for (const scheme of style.split("@media (prefers-color-scheme: dark)")) {
            const value = (name: string) => new RegExp(`--${name}: (#[0-9a-f]{6})`).exec(scheme)?.[1];
            assert.ok(value("refuted") && value("broken-bg"));
            assert.notEqual(value("refuted"), value("broken-bg"));
        }
        assert.match(html, /⊗ refuted/);
        assert.match(html, /◐ contested/);
        assert.match(html, /✓ supported/);
        assert.match(html, /⚠ broken/);
    });
});
