/**
 * Markdown reports are parsed in linear time (docs/security.md, "Resource bounds"): doubling a line
 * at most doubles the parser's work (counted steps, never time), on the shapes that made the old
 * regular-expression parser quadratic; and the linear parser reads every small report as the old one
 * did (reportParserReference.ts, the oracle).
 */
import * as assert from "node:assert/strict";
import fc from "fast-check";
import { parseReport } from "../../server/src/quotes/report";
import { parseReport as referenceParse } from "./reportParserReference";

const SHAPES: Record<string, (n: number) => string> = {
    "quotes each followed by an open bracket": (n) => `${'"a"['.repeat(n)}\n`,
    "link destinations never closed": (n) => `${'"q" ]('.repeat(n)}\n`,
    "quotes with links": (n) => `${'"quoted" ([s](https://example.org/a)) '.repeat(n)}\n`,
    "a list item of quotes": (n) => `- [t](https://example.org) - ${'"q" x '.repeat(n)}\n`,
    "inline code spans": (n) => `${'`"` "q" '.repeat(n)}\n`,
    "a heading of spaces": (n) => `# a${" ".repeat(n)}x\n`,
    "unclosed quotes and parentheses": (n) => `${'"( '.repeat(n)}\n`,
};

describe("report parser: linear in the length of a line", () => {
    for (const [name, make] of Object.entries(SHAPES)) {
        it(`doubling ${name} at most doubles the work`, () => {
            const steps = (n: number) => {
                const work = { steps: 0 };
                parseReport(make(n), work);
                return work.steps;
            };
            const small = steps(20_000);
            const large = steps(40_000);
            assert.ok(small > 0);
            assert.ok(large <= 2.1 * small, `${small} steps, then ${large} for twice the input`);
        });
    }

    it("reads every small report as the regular-expression parser did (fast-check, oracle)", () => {
        const pieces = [
            '"',
            "“",
            "”",
            "[",
            "]",
            "(",
            ")",
            "（",
            "<",
            ">",
            "-",
            "—",
            ":",
            " ",
            "  ",
            "`",
            ".",
            "#",
            "> ",
            "> Quote: ",
            "> Source: ",
            "- ",
            "* ",
            "a",
            "quote",
            "[t](https://e.org/x)",
            "(https://e.org)",
            ' "title"',
            "\n",
            "http://a.b",
            "x y z",
            '"quote" ',
            "“quote” ",
            "([t](https://e.org/x))",
            "[t](ftp://x)",
            '"a" said ([t](https://e.org/y))',
            "- [t](https://e.org/z) - ",
            '"q" - [s](https://e.org/w)',
        ];
        let runs = 0;
        let citations = 0;
        fc.assert(
            fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), (parts) => {
                const text = parts.join("");
                runs++;
                const linear = parseReport(text);
                citations += linear.citations.length;
                assert.deepEqual(linear, referenceParse(text), JSON.stringify(text));
            }),
            { numRuns: 5000, seed: 20261201 },
        );
        assert.equal(runs, 5000);
        assert.ok(citations > 200, `only ${citations} citations were compared`);
    });
});
