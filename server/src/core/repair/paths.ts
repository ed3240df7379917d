/**
 * Paths that could be meant by one that names no document: the same file name elsewhere (the file
 * moved) and near spellings (a typo), each with a cost. Only paths the documents interface lists are
 * offered, so path safety is the lister's business.
 */
import { levenshtein } from "../editDistance";
import type { RepairDocuments } from "./types";

const MAX_PATHS = 5;

export function pathCandidates(wanted: string, documents: RepairDocuments): { path: string; cost: number }[] {
    if (!documents.candidatePaths) return [];
    const name = baseName(wanted);
    const maxDistance = Math.max(2, Math.floor(wanted.length / 5));
    const found: { path: string; cost: number }[] = [];
    for (const path of documents.candidatePaths()) {
        if (path === wanted) continue;
        if (baseName(path) === name) {
            found.push({ path, cost: 1 });
            continue;
        }
        if (Math.abs(path.length - wanted.length) > maxDistance) continue;
        const distance = levenshtein(wanted, path);
        if (distance <= maxDistance) found.push({ path, cost: distance });
    }
    return found.sort((a, b) => a.cost - b.cost || a.path.localeCompare(b.path)).slice(0, MAX_PATHS);
}

function baseName(path: string): string {
    const parts = path.split(/[\\/]/);
    return parts[parts.length - 1];
}
