/** Lock file names (docs/lock.md), apart from the lock's schema so that a walk that only skips locks loads no zod. */

/**
 * `X.sourcecheck.json` -> `X.sourcecheck.lock.json`, `X.annotations.json` -> `X.annotations.lock.json`,
 * any other `X.json` (a custom annotation-file glob) -> `X.lock.json`.
 */
export function lockFileNameFor(annotationFileName: string): string {
    return annotationFileName.endsWith(".json")
        ? `${annotationFileName.slice(0, -".json".length)}.lock.json`
        : `${annotationFileName}.lock.json`;
}

/** Lock files are never annotation files, whatever glob would match them (shared/fileNames.ts). */
export { isLockFileName } from "../../../../shared/fileNames";
