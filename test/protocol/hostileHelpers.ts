/**
 * Shared pieces of the hostile-input protocol tests: a seeded PRNG, a liveness bound on requests,
 * and the checks that the server neither died nor swallowed an exception.
 */
import * as assert from "node:assert/strict";
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { TestClient } from "./harness";

/** mulberry32: small, fast, and the same sequence on every run for a seed. */
export function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** A generous liveness bound: the promise must settle within `ms`, else the test fails naming `what`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Lines the server must never write: a handler failure, an uncaught exception, a stack frame. */
const TROUBLE = /unhandled|uncaught|\bfailed:|^\s+at .+\(.+:\d+:\d+\)|RangeError|TypeError|Maximum call stack/im;

/** The server is alive and wrote no error to stderr or to the client's log. */
export function assertHealthy(client: TestClient, when = ""): void {
    assert.equal(client.exited, false, `the server exited ${when}: ${client.stderr.join("")}`);
    const stderr = client.stderr.join("");
    assert.ok(!TROUBLE.test(stderr), `server stderr ${when}:\n${stderr.slice(0, 4000)}`);
    const logged = client.logs.filter((line) => TROUBLE.test(line));
    assert.deepEqual(logged.slice(0, 3), [], `server log ${when}`);
}

interface Range {
    start: { line: number; character: number };
    end: { line: number; character: number };
}

/** True when a range is ordered and both ends sit inside the text (UTF-16 columns, end inclusive of line end). */
export function rangeInside(text: string, range: Range): boolean {
    const lines = text.split("\n");
    const ok = (p: { line: number; character: number }) =>
        Number.isInteger(p.line) &&
        Number.isInteger(p.character) &&
        p.line >= 0 &&
        p.line < lines.length &&
        p.character >= 0 &&
        p.character <= lines[p.line].length;
    const ordered =
        range.start.line < range.end.line ||
        (range.start.line === range.end.line && range.start.character <= range.end.character);
    return ok(range.start) && ok(range.end) && ordered;
}

/** Diagnostics reduced to what a user sees and code actions use, in a stable order. */
export function comparable(diagnostics: Diagnostic[]): string[] {
    return diagnostics
        .map((d) =>
            JSON.stringify({
                code: d.code,
                range: d.range,
                message: d.message,
                pointer: (d.data as { pointer?: string } | undefined)?.pointer,
                related: d.relatedInformation?.map((r) => [r.location.uri, r.location.range]),
            }),
        )
        .sort();
}

/** Offset of an LSP position in a text (positions past a line end or the last line clamp). */
export function offsetOf(text: string, position: { line: number; character: number }): number {
    let offset = 0;
    for (let line = 0; line < position.line; line++) {
        const next = text.indexOf("\n", offset);
        if (next === -1) return text.length;
        offset = next + 1;
    }
    const end = text.indexOf("\n", offset);
    return Math.min(offset + position.character, end === -1 ? text.length : end);
}
