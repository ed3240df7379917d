/**
 * A renamed or moved document (docs/repair.md, "Renamed documents"): a ref whose path names no
 * document is re-pointed only on evidence that names exactly one file, in this order: the lock's
 * hash of the whole document matches one file under the root; git records one rename of the path
 * since the lock (or `--since`); every locked text of the document is found in one file and no
 * other. Several files fitting is named, never guessed. The files and git come through the injected
 * DocumentMoves (types.ts): the core reads no files.
 */
import { isDocumentFailure } from "../session";
import type { Ref } from "../types";
import type { EvidenceKind, LockedSpan, RepairDocuments, RepairOptions } from "./types";

export type MoveVerdict =
    | { path: string; evidence: string; evidenceKind: EvidenceKind }
    | { candidates: string[]; evidence: string };

/** Files whose texts are compared, at most: beyond it, a rename by texts is not looked for. */
const MAX_FILES = 5000;

export function movedDocument(ref: Ref, documents: RepairDocuments, options: RepairOptions): MoveVerdict | undefined {
    const exists = (path: string) => {
        const document = path === ref.path ? undefined : documents.get(path);
        return document !== undefined && !isDocumentFailure(document);
    };
    const name = JSON.stringify(ref.path);
    const decide = (paths: readonly string[], one: string, several: string, evidenceKind: EvidenceKind) => {
        const found = [...new Set(paths)].filter(exists).sort();
        if (found.length === 1) return { path: found[0], evidence: `${one} ${JSON.stringify(found[0])}`, evidenceKind };
        if (found.length > 1) return { candidates: found, evidence: several.replace("{n}", String(found.length)) };
        return undefined;
    };
    const hash = options.locked?.documentSha256;
    if (hash && documents.moves) {
        const verdict = decide(
            documents.moves.pathsWithSha256(hash),
            `the lock's hash of ${name} matches one file under the root:`,
            `the lock's hash of ${name} matches {n} files`,
            "lock",
        );
        if (verdict) return verdict;
    }
    if (documents.moves) {
        const verdict = decide(
            documents.moves.renamesOf(ref.path),
            `git records ${name} renamed to`,
            `git records ${name} renamed to {n} files`,
            "history",
        );
        if (verdict) return verdict;
    }
    const texts = (options.lockedOfDocument ?? []).filter((l) => l.text !== undefined || (l.head && l.tail));
    if (texts.length === 0 || !documents.candidatePaths) return undefined;
    const holding: string[] = [];
    let files = 0;
    for (const path of documents.candidatePaths()) {
        if (path === ref.path || ++files > MAX_FILES) continue;
        const document = documents.get(path);
        if (document === undefined || isDocumentFailure(document)) continue;
        if (texts.every((locked) => holds(document.content, locked))) holding.push(path);
    }
    const count = texts.length === 1 ? "the locked text" : `all ${texts.length} locked texts`;
    return decide(
        holding,
        `${count} of ${name} ${texts.length === 1 ? "is" : "are"} found in one file only:`,
        `${count} of ${name} ${texts.length === 1 ? "is" : "are"} found in {n} files`,
        "lock",
    );
}

function holds(content: string, locked: LockedSpan): boolean {
    if (locked.text !== undefined) return content.includes(locked.text);
    return content.includes(locked.head ?? "") && content.includes(locked.tail ?? "");
}
