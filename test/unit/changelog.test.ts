/**
 * CHANGELOG.md is for the people who use SourceCheck (Keep a Changelog): the Unreleased section holds
 * at most 40 bullets, sorted under Keep a Changelog's headings, and every release section after it
 * carries its version and date. Engineering notes go to commit messages and docs/benchmarks.md.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const repo = path.resolve(__dirname, "../../..");
const KINDS = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"];

/** The `## ` sections of the changelog: their title and their lines. */
function sections(markdown: string): { title: string; lines: string[] }[] {
    const out: { title: string; lines: string[] }[] = [];
    for (const line of markdown.split("\n")) {
        if (line.startsWith("## ")) out.push({ title: line.slice(3), lines: [] });
        else out[out.length - 1]?.lines.push(line);
    }
    return out;
}

describe("CHANGELOG.md", () => {
    const text = fs.readFileSync(path.join(repo, "CHANGELOG.md"), "utf8");
    const all = sections(text);

    it("opens with an Unreleased section of at most 40 bullets under Keep a Changelog's headings", () => {
        assert.equal(all[0]?.title, "[Unreleased]");
        const bullets = all[0].lines.filter((line) => line.startsWith("- "));
        assert.ok(bullets.length > 0 && bullets.length <= 40, `${bullets.length} bullets in Unreleased`);
        const kinds = all[0].lines.filter((line) => line.startsWith("### ")).map((line) => line.slice(4));
        assert.deepEqual(
            kinds.filter((kind) => !KINDS.includes(kind)),
            [],
        );
    });

    it("dates every release section: ## [x.y.z] - YYYY-MM-DD", () => {
        const releases = all.slice(1);
        assert.ok(releases.length >= 1);
        for (const { title } of releases) assert.match(title, /^\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/, title);
    });
});
