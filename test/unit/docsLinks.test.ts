/**
 * Every relative link of README.md, CHANGELOG.md and docs/*.md leads somewhere: to a file that exists
 * and, when it names a #fragment, to a heading of that file (GitHub's anchors: lower case, punctuation
 * dropped, spaces to hyphens, a repeated heading numbered -1, -2, …). Docs are split and moved by
 * purpose (docs/README.md); a link left behind fails here, not in a reader's browser.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");
const docs = path.join(repo, "docs");

/** Markdown without its fenced code blocks, where nothing is a heading. */
function withoutFences(markdown: string): string {
    return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** Markdown without its fenced code blocks and inline code, where link-like text is not a link. */
function prose(markdown: string): string {
    return withoutFences(markdown).replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading's text. */
function slug(heading: string): string {
    return heading
        .trim()
        .toLowerCase()
        .replace(/<[^>]+>/g, "")
        .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
        .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
        .replace(/ /g, "-");
}

/** The anchors of a Markdown file's headings, repeats numbered as GitHub numbers them. */
function anchors(markdown: string): Set<string> {
    const seen = new Map<string, number>();
    const out = new Set<string>();
    for (const match of withoutFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
        const base = slug(match[1].replace(/`/g, ""));
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        out.add(count === 0 ? base : `${base}-${count}`);
    }
    return out;
}

/** The relative links of a Markdown file: `[text](target)`, external and mail links left out. */
function relativeLinks(markdown: string): string[] {
    const targets: string[] = [];
    for (const match of prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(match[1])) continue;
        targets.push(match[1]);
    }
    return targets;
}

function markdownFiles(): string[] {
    const pages = fs.readdirSync(docs).filter((name) => name.endsWith(".md"));
    return ["README.md", "CHANGELOG.md", ...pages.map((name) => `docs/${name}`)].map((f) => path.join(repo, f));
}

describe("links between the docs", () => {
    it("every relative link of README.md, CHANGELOG.md and docs/ names a file and a heading that exist", () => {
        const broken: string[] = [];
        let checked = 0;
        let withAnchor = 0;
        for (const file of markdownFiles()) {
            const text = fs.readFileSync(file, "utf8");
            for (const link of relativeLinks(text)) {
                const [target, fragment] = link.split("#", 2);
                const resolved = target === "" ? file : path.resolve(path.dirname(file), decodeURI(target));
                const where = `${path.relative(repo, file)} -> ${link}`;
                checked++;
                if (!fs.existsSync(resolved)) {
                    broken.push(`${where} (no such file)`);
                    continue;
                }
                if (fragment === undefined || !resolved.endsWith(".md")) continue;
                withAnchor++;
                if (/^L\d+(-L\d+)?$/.test(fragment)) continue; // a line of the file, as GitHub shows it
                if (!anchors(fs.readFileSync(resolved, "utf8")).has(fragment.toLowerCase()))
                    broken.push(`${where} (no such heading)`);
            }
        }
        assert.deepEqual(broken, []);
        assert.ok(checked > 150, `${checked} links checked`);
        assert.ok(withAnchor >= 5, `${withAnchor} links with a heading checked`);
    });

    it("turns headings into GitHub's anchors, repeats and punctuation included", () => {
        assert.equal(slug("Which files"), "which-files");
        assert.equal(slug("Editor: Find Sources for Claim"), "editor-find-sources-for-claim");
        assert.equal(slug("`npm test`, and what it installs"), "npm-test-and-what-it-installs");
        assert.equal(slug("Dependencies, one line each"), "dependencies-one-line-each");
        assert.deepEqual([...anchors("# A\n## B\n```\n# not a heading\n```\n## B\n")], ["a", "b", "b-1"]);
        // A heading's inline code is part of its anchor, as GitHub makes it.
        assert.deepEqual([...anchors("## One door: the `Workspace`\n")], ["one-door-the-workspace"]);
        assert.deepEqual(relativeLinks("[x](a.md#b) [y](https://e.com) `[z](c.md)` [w](#top)"), ["a.md#b", "#top"]);
    });
});
