/**
 * Which writing systems a text uses (docs/evidence.md, "What search cannot do"): matching is lexical,
 * so a query in one script finds nothing written in another, and the result says which scripts the
 * corpus holds when the query's is missing from its hits. Digits and punctuation belong to none.
 */

const SCRIPTS: readonly [string, RegExp][] = [
    ["Latin", /\p{Script=Latin}/u],
    ["Han", /\p{Script=Han}/u],
    ["Kana", /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
    ["Hangul", /\p{Script=Hangul}/u],
    ["Cyrillic", /\p{Script=Cyrillic}/u],
    ["Greek", /\p{Script=Greek}/u],
    ["Arabic", /\p{Script=Arabic}/u],
    ["Hebrew", /\p{Script=Hebrew}/u],
    ["Devanagari", /\p{Script=Devanagari}/u],
    ["Thai", /\p{Script=Thai}/u],
];

/** The scripts of a text's letters, in SCRIPTS order. */
export function scriptsOf(text: string): string[] {
    return SCRIPTS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

/** The scripts of a set of terms, each judged by its first letter (a term holds one script). */
export function scriptsOfTerms(terms: Iterable<string>): string[] {
    const found = new Set<string>();
    for (const term of terms) {
        if (found.size === SCRIPTS.length) break;
        for (const [name, pattern] of SCRIPTS) {
            if (!found.has(name) && pattern.test(term)) {
                found.add(name);
                break;
            }
        }
    }
    return SCRIPTS.map(([name]) => name).filter((name) => found.has(name));
}

/**
 * What to say when no hit is written in the query's scripts and the corpus holds another script
 * (undefined otherwise: the note would only repeat "nothing found"): the query's and the corpus's.
 */
export function scriptNote(
    query: string,
    hitTexts: readonly string[],
    corpusScripts: () => string[],
): { query: string[]; corpus: string[]; note: string } | undefined {
    const wanted = scriptsOf(query);
    if (wanted.length === 0) return undefined;
    if (hitTexts.some((text) => scriptsOf(text).some((script) => wanted.includes(script)))) return undefined;
    const corpus = corpusScripts();
    const others = corpus.filter((script) => !wanted.includes(script));
    if (others.length === 0) return undefined;
    const list = (names: string[]) => names.join(", ");
    const note =
        `The query is written in ${list(wanted)} and no hit is; the corpus also holds ${list(others)} text, which ` +
        `a query in ${list(wanted)} cannot find (lexical matching): if it may hold the claim, ask in its language.`;
    return { query: wanted, corpus, note };
}
