// Deterministic workloads for the benchmark: documents of pseudo-prose and annotations whose refs
// all resolve (boundaries are the shortest unique strings at word edges, found with the core itself).
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const core = require("../dist/index.js");

/** mulberry32: a tiny seeded PRNG, so every run builds the same bytes. */
export function random(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const WORDS = (
    "the a of to and in is was for on that with as by at from it this be are or an which not have has " +
    "latency release build cache plugin scheduler memory queue sync offline client server request " +
    "median percent faster slower improved regression benchmark runtime startup cold warm disk network " +
    "报告 数据 延迟 用户 版本 😀 résumé naïve"
).split(" ");

function line(next, index) {
    const words = [];
    let length = 0;
    while (length < 70) {
        const word = WORDS[Math.floor(next() * WORDS.length)];
        words.push(word);
        length += word.length + 1;
    }
    // A number per line keeps most lines distinct, as real prose is.
    words.splice(Math.floor(next() * words.length), 0, String(index * 7919 + Math.floor(next() * 1000)));
    return words.join(" ");
}

export function makeDocument(next, bytes, firstIndex = 0) {
    const lines = [];
    let size = 0;
    let i = firstIndex;
    while (size < bytes) {
        const text = line(next, i++);
        lines.push(text);
        size += Buffer.byteLength(text) + 1;
    }
    return lines.join("\n");
}

/** A ref with shortest unique boundaries around a few words of a line, or undefined if none fits. */
function refOn(next, document, lineNumber) {
    const text = document.lines.line(lineNumber);
    const starts = [0];
    for (let i = 1; i < text.length; i++) if (text[i - 1] === " ") starts.push(i);
    const from = starts[Math.floor(next() * Math.max(1, starts.length - 3))];
    let to = text.indexOf(" ", from + 10 + Math.floor(next() * 20));
    if (to === -1) to = text.length;
    const attempt = core.refForSpan(document, { line: lineNumber, column: from }, { line: lineNumber, column: to });
    return attempt.ok ? attempt.ref : undefined;
}

/**
 * A workspace folder: `documents` files totalling `totalBytes`, and `answer.sourcecheck.json` with
 * `annotations` annotations (a claim in answer.md, one or two sources). Returns paths and sizes.
 */
export function makeWorkspace(dir, { annotations, totalBytes, documents = 20, seed = 1 }) {
    const next = random(seed);
    mkdirSync(join(dir, "docs"), { recursive: true });
    const answerBytes = Math.max(4096, Math.floor(totalBytes / 10));
    const sourceBytes = Math.floor((totalBytes - answerBytes) / documents);
    const all = [{ path: "answer.md", content: makeDocument(next, answerBytes) }];
    for (let i = 0; i < documents; i++) {
        all.push({ path: `docs/source-${i}.md`, content: makeDocument(next, sourceBytes, (i + 1) * 1_000_000) });
    }
    const session = core.buildSession(all);
    const list = [];
    const answer = session.get("answer.md");
    while (list.length < annotations) {
        const claim = refOn(next, answer, 1 + Math.floor(next() * answer.lines.lineCount));
        if (!claim) continue;
        const sources = [];
        const count = 1 + Math.floor(next() * 2);
        for (let s = 0; s < count; s++) {
            const doc = session.get(`docs/source-${Math.floor(next() * documents)}.md`);
            const ref = refOn(next, doc, 1 + Math.floor(next() * doc.lines.lineCount));
            if (ref) {
                sources.push({
                    ...ref,
                    polarity: next() < 0.8 ? "supports" : "refutes",
                    confidence: Math.round(next() * 100) / 100,
                });
            }
        }
        if (sources.length > 0) list.push({ claim, sources });
    }
    let bytes = 0;
    for (const document of all) {
        writeFileSync(join(dir, document.path), document.content);
        bytes += Buffer.byteLength(document.content);
    }
    const annotationFile = join(dir, "answer.sourcecheck.json");
    writeFileSync(annotationFile, JSON.stringify({ annotations: list }, null, 1));
    return { dir, annotationFile, documentBytes: bytes, documents: all.map((d) => d.path) };
}
