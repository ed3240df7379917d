/**
 * Every pattern counted (docs/security.md, "Resource bounds"): one budget for every glob the CLI,
 * the configuration, the MCP tools and the editor take, counting every construct that can backtrack.
 * Work is counted (steps, quantifiers of the compiled expression), never timed.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import picomatch from "picomatch";
import {
    compileGlob,
    GlobError,
    globProblem,
    globSteps,
    MAX_STARS_WITH_SYNTAX,
    parseAlternatives,
} from "../../server/src/workspace/globs";
import { runCliAsync } from "./cliRun";

/** Unbounded quantifiers (`*`, `+`, `{n,}`) of a regular expression's source, outside classes and escapes. */
function unboundedQuantifiers(source: string): number {
    let count = 0;
    let inClass = false;
    for (let i = 0; i < source.length; i++) {
        const c = source[i];
        if (c === "\\") {
            i++;
            continue;
        }
        if (inClass) {
            if (c === "]") inClass = false;
            continue;
        }
        if (c === "[") inClass = true;
        else if (c === "*" || c === "+") count++;
        else if (c === "{" && /^\{\d+,\}/.test(source.slice(i))) count++;
    }
    return count;
}

/** Tokens of one path segment, each with what it matches for the independent matcher below (undefined: no model). */
const TOKENS: { glob: string; model?: (name: string, at: number) => number[] }[] = [
    { glob: "a", model: literal("a") },
    { glob: "b", model: literal("b") },
    { glob: "*", model: (name, at) => range(at, name.length) },
    { glob: "?", model: (name, at) => (at < name.length ? [at + 1] : []) },
    { glob: "[ab]", model: (name, at) => (at < name.length && "ab".includes(name[at]) ? [at + 1] : []) },
    { glob: "@(a|ab)", model: (name, at) => [...literal("a")(name, at), ...literal("ab")(name, at)] },
    { glob: "{a,bb}", model: (name, at) => [...literal("a")(name, at), ...literal("bb")(name, at)] },
    { glob: "?(b)", model: (name, at) => [at, ...literal("b")(name, at)] },
    { glob: "!(a)" },
    { glob: "!(a|b)" },
    { glob: "!(*a)" },
    { glob: "+(a)" },
    { glob: "*(b)" },
];

function literal(text: string) {
    return (name: string, at: number) => (name.startsWith(text, at) ? [at + text.length] : []);
}

function range(from: number, to: number): number[] {
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** An independent backtracking matcher over the modelled tokens (tiny names only). */
function modelMatches(tokens: readonly (typeof TOKENS)[number][], name: string): boolean {
    const go = (t: number, at: number): boolean =>
        t === tokens.length ? at === name.length : (tokens[t].model?.(name, at) ?? []).some((next) => go(t + 1, next));
    return go(0, 0);
}

describe("hardening: every pattern counted", () => {
    it("negations and repetitions count against the budget: the sweep's patterns are refused", () => {
        for (const pattern of [
            "!(a)!(a)!(a)!(a)!(a)!(a)b",
            "!(a)!(a)!(a)!(a)!(a)b",
            "!(a)!(a)!(a)b",
            "+(a)+(a)+(a)b",
            "**/!(a)!(a)*b",
        ]) {
            assert.match(globProblem(pattern) ?? "", /wildcards in one path segment/, pattern);
            assert.throws(() => compileGlob(pattern), GlobError, pattern);
        }
        // Within the budget, the compiled expression has at most that many unbounded quantifiers.
        for (const pattern of ["!(a)b", "!(a)!(a)b", "!(a)*b", "+(a)b"]) {
            assert.equal(globProblem(pattern), undefined, pattern);
            const source = picomatch.makeRe(pattern, { dot: true }).source;
            assert.ok(unboundedQuantifiers(source) <= MAX_STARS_WITH_SYNTAX, `${pattern}: ${source}`);
        }
    });

    it("generated patterns: refused, or matched by the linear matcher as an independent one does, or compiled with at most the budget's quantifiers", () => {
        const counts = { refused: 0, linear: 0, compiled: 0, names: 0 };
        fc.assert(
            fc.property(
                fc.array(fc.integer({ min: 0, max: TOKENS.length - 1 }), { minLength: 1, maxLength: 9 }),
                fc.array(fc.stringMatching(/^[ab]{1,7}$/), { minLength: 1, maxLength: 6 }),
                (indexes, names) => {
                    const tokens = indexes.map((i) => TOKENS[i]);
                    const pattern = tokens.map((t) => t.glob).join("");
                    const problem = globProblem(pattern);
                    if (problem !== undefined) {
                        counts.refused++;
                        assert.throws(() => compileGlob(pattern), GlobError);
                        return;
                    }
                    const matches = compileGlob(pattern, { dot: true });
                    if (tokens.every((t) => t.model !== undefined) && !pattern.includes("[")) {
                        counts.linear++;
                        const alternatives = parseAlternatives(pattern).count;
                        for (const name of names) {
                            const before = globSteps();
                            assert.equal(matches(name), modelMatches(tokens, name), `${pattern} on ${name}`);
                            // The bound on work per path: each alternative is one two-pointer match.
                            const steps = globSteps() - before;
                            assert.ok(
                                steps <= alternatives * (name.length + 1) * (pattern.length + 1),
                                `${pattern} on ${name}: ${steps}`,
                            );
                            counts.names++;
                        }
                        return;
                    }
                    counts.compiled++;
                    const source = picomatch.makeRe(pattern, { dot: true }).source;
                    assert.ok(unboundedQuantifiers(source) <= MAX_STARS_WITH_SYNTAX, `${pattern}: ${source}`);
                    if (tokens.every((t) => t.model !== undefined))
                        for (const name of names)
                            assert.equal(matches(name), modelMatches(tokens, name), `${pattern} on ${name}`);
                },
            ),
            { numRuns: 600, seed: 46 },
        );
        assert.ok(counts.refused >= 50 && counts.linear >= 50 && counts.compiled >= 50, JSON.stringify(counts));
        assert.ok(counts.names >= 100, JSON.stringify(counts));
    });

    it("the CLI refuses the sweep's negation glob with exit 2, as --exclude, as a path and in the configuration", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sourcecheck-negation-"));
        try {
            fs.writeFileSync(path.join(dir, `${"a".repeat(200)}.sourcecheck.json`), "[]");
            const hostile = "!(a)!(a)!(a)!(a)!(a)!(a)b";
            for (const args of [
                ["check", "--exclude", hostile, "."],
                ["check", `${hostile}/*.sourcecheck.json`],
            ]) {
                const run = await runCliAsync(args, { cwd: dir });
                assert.equal(run.status, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
                assert.match(run.stderr, /wildcards in one path segment/);
            }
            fs.writeFileSync(path.join(dir, "sourcecheck.config.json"), JSON.stringify({ exclude: [hostile] }));
            const configured = await runCliAsync(["check", "."], { cwd: dir });
            assert.equal(configured.status, 2, configured.stdout + configured.stderr);
            assert.match(configured.stderr, /wildcards in one path segment/);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
