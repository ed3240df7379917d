/**
 * One numbering (docs/contract.md, "Numbers"): every text a person reads, and every field named
 * `annotation` or `source` in any output, command argument or request, counts from 1; a 0-based
 * position appears only in a field named `index` or inside a JSON Pointer. Every producer (client,
 * language server, CLI text, HTML report) names annotations and sources through these helpers, so
 * the two numberings never meet in a sentence; test/unit/numbering.test.ts checks that no producer spells an index itself.
 */

/**
 * Which ref of an annotation a front end names (docs/contract.md, "Numbers"): the claim, or a source
 * counted from 1. Declared here, beside the numbering, so the npm package's types need no LSP types.
 */
export type RefRole = { role: "claim"; source?: undefined } | { role: "source"; source: number };

/** "annotation 9" for the 0-based index 8. */
export function annotationLabel(index: number, capital = false): string {
    return `${capital ? "Annotation" : "annotation"} ${index + 1}`;
}

/** "source 1" for the 0-based index 0. */
export function sourceLabel(index: number, capital = false): string {
    return `${capital ? "Source" : "source"} ${index + 1}`;
}

/** Which ref of an annotation (its claim, or a source numbered from 1) from the core's role: "claim" or a 0-based source index. */
export function refRoleOf(role: "claim" | number): RefRole {
    return role === "claim" ? { role: "claim" } : { role: "source", source: role + 1 };
}

/** The 1-based number a person reads for a 0-based index. */
export function ordinal(index: number): number {
    return index + 1;
}

/** The 0-based index of a number counted from 1 (an `annotation` or `source` of the protocol). */
export function indexOfOrdinal(number: number): number {
    return number - 1;
}

function unescapeToken(token: string): string {
    return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * A JSON Pointer read aloud with 1-based numbers: "/annotations/8/sources" -> "annotation 9, sources",
 * "/annotations/3/sources/0/polarity" -> "annotation 4, source 1, polarity",
 * "/session/documents/2/path" -> "session, document 3, path". "" (the whole file) -> "the file".
 */
export function pointerForPeople(pointer: string): string {
    if (pointer === "" || pointer === "/") return "the file";
    const tokens = pointer.split("/").slice(1).map(unescapeToken);
    const words: string[] = [];
    for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i];
        const next = tokens[i + 1];
        const singular = { annotations: "annotation", sources: "source", documents: "document" }[token];
        if (singular !== undefined && next !== undefined && /^\d+$/.test(next)) {
            words.push(`${singular} ${Number(next) + 1}`);
            i++;
            continue;
        }
        // A bare array of annotations: the pointer starts with the index.
        if (i === 0 && /^\d+$/.test(token)) {
            words.push(annotationLabel(Number(token)));
            continue;
        }
        words.push(/^\d+$/.test(token) ? `item ${Number(token) + 1}` : token);
    }
    return words.join(", ");
}

/** A pointer as a person sees it: the pointer itself, with its 1-based reading beside it. */
export function pointerWithReading(pointer: string): string {
    return `${pointer || "/"} (${pointerForPeople(pointer)})`;
}

/** "1 page", "2 pages": a count with its noun in the right number. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
    return `${count} ${count === 1 ? singular : pluralForm}`;
}
