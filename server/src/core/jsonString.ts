/**
 * Offsets inside a JSON string token. An embedded document's content is the decoded string; to
 * point into the annotation file at a span of it, decoded offsets must map to raw ones (escapes
 * such as `\n` or `\u00e9` take more raw characters than they decode to).
 */

/** Raw offset (from the opening quote) of the decoded offset `decoded` in the string token `raw`. */
export function rawOffsetInJsonString(raw: string, decoded: number): number {
    let rawAt = raw.startsWith('"') ? 1 : 0;
    let decodedAt = 0;
    while (decodedAt < decoded && rawAt < raw.length) {
        if (raw[rawAt] === "\\") rawAt += raw[rawAt + 1] === "u" ? 6 : 2;
        else rawAt += 1;
        decodedAt += 1;
    }
    return rawAt;
}

/** The inverse: the decoded offset at raw offset `rawOffset` of the token (inside an escape: its start). */
export function decodedOffsetInJsonString(raw: string, rawOffset: number): number {
    let rawAt = raw.startsWith('"') ? 1 : 0;
    let decodedAt = 0;
    while (rawAt < rawOffset && rawAt < raw.length - 1) {
        const step = raw[rawAt] === "\\" ? (raw[rawAt + 1] === "u" ? 6 : 2) : 1;
        if (rawAt + step > rawOffset) break;
        rawAt += step;
        decodedAt += 1;
    }
    return decodedAt;
}
