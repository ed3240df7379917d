/**
 * The answers being written (docs/evidence.md, "Which files"): the documents that annotation files
 * use as claim paths. A search for sources must never offer an answer as its own source. Pure: the
 * caller reads the annotation files.
 */

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The claim paths of an annotation file's parsed JSON, `/`-separated, a leading `./` dropped; none
 * when the file embeds its own session (its claims cite its own documents, not files).
 */
export function claimPathsOf(value: unknown): string[] {
    let annotations: unknown;
    if (Array.isArray(value)) annotations = value;
    else if (isObject(value) && !("session" in value) && !("documents" in value)) annotations = value.annotations;
    if (!Array.isArray(annotations)) return [];
    const paths = new Set<string>();
    for (const annotation of annotations) {
        if (!isObject(annotation) || !isObject(annotation.claim)) continue;
        const path = annotation.claim.path;
        if (typeof path !== "string" || path === "") continue;
        paths.add(path.replace(/\\/g, "/").replace(/^(?:\.\/)+/, ""));
    }
    return [...paths];
}
