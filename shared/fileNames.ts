/**
 * The names of the files SourceCheck writes its citations in (docs/config.md, "Which files are
 * annotation files"; docs/lock.md), once for the server, the client and every front end: annotation
 * files `*.sourcecheck.json` and `*.annotations.json` (in any case), and their locks `*.lock.json`.
 * Neither is ever a document to cite, a candidate of repair or a hit of evidence search. Names a
 * configuration adds (`annotationFiles`) are the discovery's business (server/src/workspace/discovery.ts).
 */

/** The built-in annotation-file suffixes. */
export const ANNOTATION_FILE_SUFFIXES = [".sourcecheck.json", ".annotations.json"] as const;

/** The same as globs at any depth (the evidence corpus's include and exclude lists). */
export const ANNOTATION_FILE_GLOBS: readonly string[] = ANNOTATION_FILE_SUFFIXES.map((suffix) => `**/*${suffix}`);

/** A lock's suffix: `X.sourcecheck.json` -> `X.sourcecheck.lock.json` (docs/lock.md). */
export const LOCK_FILE_SUFFIX = ".lock.json";

/** An annotation file by its built-in name (a lock is not one, though it ends in `.json` too). */
export function isAnnotationFileName(name: string): boolean {
    const lower = name.toLowerCase();
    return !isLockFileName(name) && ANNOTATION_FILE_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/** Lock files are never annotation files, whatever glob would match them. */
export function isLockFileName(name: string): boolean {
    return name.endsWith(LOCK_FILE_SUFFIX);
}

/** A file that holds citations, not sources: an annotation file or a lock, by its name alone. */
export function isCitationFileName(name: string): boolean {
    return isLockFileName(name) || isAnnotationFileName(name);
}

/** The base name of a `/`- or `\`-separated path. */
export function baseNameOf(path: string): string {
    return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
