/**
 * The docs stay findable and the README stays short (docs/README.md): every page of docs/ is linked
 * from the index, every relative link of the README and the index leads to a file that exists, and
 * the README is read in five minutes (at most 250 lines).
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");
const docs = path.join(repo, "docs");

/** The relative targets of the Markdown links in a text, without their #fragment. */
function relativeLinks(markdown: string): string[] {
    const targets: string[] = [];
    for (const match of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1].split("#")[0];
        if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        targets.push(target);
    }
    return targets;
}

describe("docs index and README", () => {
    it("links every page of docs/ from docs/README.md", () => {
        const index = fs.readFileSync(path.join(docs, "README.md"), "utf8");
        const linked = new Set(relativeLinks(index).map((t) => path.normalize(t)));
        const pages = fs.readdirSync(docs).filter((name) => name.endsWith(".md") && name !== "README.md");
        assert.ok(pages.length >= 20, `docs/ holds ${pages.length} pages`);
        const missing = pages.filter((page) => !linked.has(page));
        assert.deepEqual(missing, [], `pages docs/README.md does not link: ${missing.join(", ")}`);
    });

    it("groups the index by purpose and keeps every page of docs/ at most 400 lines", () => {
        const index = fs.readFileSync(path.join(docs, "README.md"), "utf8");
        const sections = [...index.matchAll(/^## (.+)$/gm)].map((m) => m[1].split(":")[0]);
        assert.deepEqual(sections, ["Tutorial", "How-to guides", "Reference", "Explanation"]);
        const pages = fs.readdirSync(docs).filter((name) => name.endsWith(".md"));
        const long = pages
            .map((page) => ({ page, lines: fs.readFileSync(path.join(docs, page), "utf8").split("\n").length }))
            .filter(({ lines }) => lines > 400);
        assert.deepEqual(long, [], "split a long page by purpose (docs/README.md)");
    });

    it("has no README or index link to a file that does not exist", () => {
        for (const file of [path.join(repo, "README.md"), path.join(docs, "README.md")]) {
            const links = relativeLinks(fs.readFileSync(file, "utf8"));
            assert.ok(links.length > 5, `${file} has ${links.length} relative links`);
            const broken = links.filter((link) => !fs.existsSync(path.resolve(path.dirname(file), link)));
            assert.deepEqual(broken, [], `broken links in ${path.relative(repo, file)}`);
        }
    });

    it("keeps the README at most 250 lines, with the two commands and the docs index linked", () => {
        const readme = fs.readFileSync(path.join(repo, "README.md"), "utf8");
        const lines = readme.split("\n").length;
        assert.ok(lines <= 250, `README.md has ${lines} lines`);
        assert.match(readme, /^npm start\b/m);
        assert.match(readme, /^npm test\b/m);
        assert.ok(relativeLinks(readme).includes("docs/README.md"));
    });
});
