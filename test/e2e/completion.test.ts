import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import {
    cleanSlate,
    type JsonPath,
    lineOf,
    occurrences,
    openAnnotations,
    prepare,
    type Ref,
    readableEndingAt,
    tokenRange,
    valueAt,
} from "./demo";
import { waitFor } from "./harness";

/** The boundary strings offered at `position`: items that write a JSON string into the `str` value. */
async function offeredBoundaries(doc: vscode.TextDocument, position: vscode.Position): Promise<string[]> {
    const list = await waitFor(
        "completion items",
        () =>
            vscode.commands.executeCommand<vscode.CompletionList>(
                "vscode.executeCompletionItemProvider",
                doc.uri,
                position,
            ),
        (l) => l?.items.some((i) => written(i)?.startsWith('"')),
    );
    return list.items
        .map(written)
        .filter((t): t is string => t?.startsWith('"') === true)
        .map((t) => JSON.parse(t) as string);
}

function written(item: vscode.CompletionItem): string | undefined {
    if (item.textEdit) return item.textEdit.newText;
    if (typeof item.insertText === "string") return item.insertText;
    if (item.insertText) return item.insertText.value;
    return typeof item.label === "string" ? item.label : item.label.label;
}

describe("completion of boundary strings", () => {
    before(prepare);
    after(cleanSlate);

    it("offers only word-aligned boundaries unique on the cited line inside an end `str`, including the fixes for an ambiguous one", async () => {
        const doc = await openAnnotations();
        const at: JsonPath = ["annotations", 4, "claim", "end", "str"];
        const claim = valueAt<Ref>(doc, ["annotations", 4, "claim"]);
        const line = await lineOf(claim.path, claim.end.line);
        const offered = await offeredBoundaries(doc, tokenRange(doc, at).start.translate(0, 1));
        assert.ok(offered.length > 0);
        for (const value of offered) {
            assert.equal(
                occurrences(line, value).length,
                1,
                `${JSON.stringify(value)} is offered but not unique on ${JSON.stringify(line)}`,
            );
        }
        assert.ok(!offered.includes(claim.end.str), "the ambiguous boundary itself is offered");
        for (const c of occurrences(line, claim.end.str)) {
            const fix = readableEndingAt(line, c + claim.end.str.length)!;
            assert.ok(
                offered.includes(fix),
                `${JSON.stringify(fix)} (ends the occurrence at column ${c}) is not offered: ${JSON.stringify(offered)}`,
            );
        }
    });

    it("offers start boundaries that are unique and begin a word inside a start `str`", async () => {
        const doc = await openAnnotations();
        const at: JsonPath = ["annotations", 1, "sources", 0, "start", "str"];
        const ref = valueAt<Ref>(doc, ["annotations", 1, "sources", 0]);
        const line = await lineOf(ref.path, ref.start.line);
        const offered = await offeredBoundaries(doc, tokenRange(doc, at).start.translate(0, 1));
        assert.ok(offered.length > 1);
        for (const value of offered) {
            const found = occurrences(line, value);
            assert.equal(
                found.length,
                1,
                `${JSON.stringify(value)} is offered but not unique on ${JSON.stringify(line)}`,
            );
            assert.ok(
                found[0] === 0 || /\W/.test(line[found[0] - 1]) || /\W/.test(value[0]),
                `${JSON.stringify(value)} does not start a word`,
            );
        }
        assert.ok(
            offered.includes(ref.start.str) || offered.some((v) => ref.start.str.startsWith(v)),
            "the current start is not among the offers",
        );
    });
});
