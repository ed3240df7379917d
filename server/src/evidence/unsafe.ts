/**
 * The unsafe-source gate (docs/evidence-internals.md, "Unsafe sources"): a document containing a prompt-override
 * phrase anywhere is kept out of every result, all of its chunks, whatever their relevance. Phrases are
 * matched case-folded with runs of whitespace collapsed, so line wrapping cannot hide one.
 */

export const DEFAULT_UNSAFE_PATTERNS: readonly string[] = [
    "ignore previous instructions",
    "ignore all previous instructions",
    "override the system prompt",
    "reveal the system prompt",
    "follow these instructions instead",
    "忽略之前的指令",
    "忽略所有指令",
    "覆盖系统提示",
    "泄露系统提示",
];

export function normalizeForGate(text: string): string {
    return text.toLowerCase().replace(/\s+/g, " ");
}

/** The patterns in force: the defaults and the user's own (normalised, empty ones dropped, no repeats). */
export function unsafePatterns(extra: readonly string[] = []): string[] {
    const all = [...DEFAULT_UNSAFE_PATTERNS, ...extra].map((p) => normalizeForGate(p).trim()).filter((p) => p !== "");
    return [...new Set(all)];
}

const compiled = new Map<string, RegExp>();

/**
 * One regular expression for all patterns (spaces match any whitespace run, case ignored), so a
 * document is scanned once and never copied: the gate runs on every file of the corpus.
 */
function matcher(patterns: readonly string[]): RegExp {
    const key = patterns.join("\n");
    let found = compiled.get(key);
    if (!found) {
        const alternatives = patterns.map((p) =>
            p
                .split(" ")
                .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
                .join("\\s+"),
        );
        found = new RegExp(alternatives.join("|"), "iu");
        compiled.set(key, found);
    }
    return found;
}

/** Why a document is unsafe (`prompt override pattern: <pattern>`), or undefined when it is not. */
export function unsafeReason(content: string, patterns: readonly string[]): string | undefined {
    if (patterns.length === 0) return undefined;
    const match = matcher(patterns).exec(content);
    if (!match) return undefined;
    // The first pattern (in order) that the document contains, as the reason.
    const normalized = normalizeForGate(content);
    const pattern = patterns.find((p) => normalized.includes(p)) ?? normalizeForGate(match[0]);
    return `prompt override pattern: ${pattern}`;
}
