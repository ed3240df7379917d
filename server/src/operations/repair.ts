/**
 * The repair operation (docs/repair.md, docs/contract.md "Operations"): every broken ref of one
 * annotation file with the refs its author meant, from the strongest evidence there is — the lock
 * beside the file, the documents' history, the only reading. `sourcecheck repair`, the MCP and
 * VS Code `repair` tools all run this one function; they differ only in how they read, write and word.
 */
import type { ParseError } from "jsonc-parser";
import { parseTree } from "jsonc-parser";
import { MAX_NESTING, nestingBeyond } from "../../../shared/jsonNesting";
import { checkInput } from "../core/check";
import { documentsAtBasis, type LockError, type LockFile, matchLock, trustedEntries } from "../core/lock";
import type { NextStep } from "../core/nextStep";
import { parseJsonText } from "../core/parse";
import { applyCertainRepairs, type RepairDocuments, type RepairEntry, repairCheckedSteps } from "../core/repair";
import type { DocumentLookup } from "../core/session";
import type { SchemaError } from "../core/types";
import { OperationError } from "./errors";
import { type RefPlace, refPlace } from "./numbers";

export interface RepairRequest {
    /** The annotation file's text, as stored or as open in the editor. */
    text: string;
    /** A git revision whose documents tell where spans moved (else the file's last commit). */
    since?: string;
    /** No "only reading": a document may have changed since the refs were written. */
    strict?: boolean;
    /** brief: certain repairs only, each remaining ref with its next step; full: every candidate too. */
    detail?: "brief" | "full";
}

/** The lock beside the file as read: none, one, or why it cannot be used. */
export interface LockRead {
    /** The lock file as its reader knows it. */
    path: string;
    lock?: LockFile;
    error?: LockError;
}

/** What repair reads, injected by each front end. */
export interface RepairCapabilities {
    /** The documents under the file's document root, with every path a missing one could mean. */
    documents: RepairDocuments;
    /** The lock beside the file; absent where the file has no place on disk (stdin). */
    lock?: () => LockRead;
    history: {
        /** The documents at a revision; throws an OperationError for an unknown one. */
        at(rev: string): DocumentLookup;
        /** The documents at the file's last commit, and how to name it; undefined without one. */
        lastCommit?(): { documents: DocumentLookup; label: string } | undefined;
    };
    sha256: (text: string) => string;
}

/** The core's repair entry, its place counted from 1 for people (docs/contract.md). */
export type RepairItem = RefPlace & Omit<RepairEntry, "annotation" | "role">;

export type RemainingItem = RefPlace & {
    pointer: string;
    code: string;
    message: string;
    next: NextStep;
};

export interface RepairResult {
    /** Certain repairs, and with detail "full" the uncertain candidates too. */
    repairs: RepairItem[];
    /** Refs left without a certain repair. */
    remaining: RemainingItem[];
    schemaErrors?: SchemaError[];
}

export interface RepairPlan {
    result: RepairResult;
    /** The file with its certain repairs applied; undefined when the text does not parse whole. */
    repaired?: { text: string; applied: number };
    /** How many refs were broken (or on changed text), to summarise. */
    certainCount: number;
    /** Refs offered uncertain candidates, whether listed or not. */
    offeredCount: number;
}

/** The operation as steps (it yields between refs, so a server can answer others meanwhile). */
export function* repairSteps(request: RepairRequest, capabilities: RepairCapabilities): Generator<void, RepairPlan> {
    const lockRead = capabilities.lock?.();
    if (lockRead?.error) {
        throw new OperationError(
            "invalid-lock",
            `${lockRead.path}: ${lockRead.error.code}: ${lockRead.error.message}; fix or delete it to repair from it`,
        );
    }
    const lock = lockRead?.lock;
    const input = parseJsonText(request.text);
    const checked = checkInput(input.value, capabilities.documents, input.syntaxErrors, {
        keepAnnotations: true,
        keepEntries: false,
    });
    const history = historyFor(request, capabilities, checked.report.invalidCount > 0 || lock !== undefined);
    const { sha256 } = capabilities;
    const found = yield* repairCheckedSteps(checked, {
        documents: capabilities.documents,
        previous: history?.documents,
        previousLabel: history?.label,
        unchanged: request.strict !== true,
        sha256,
        lockedSpans: lock
            ? (sites) => {
                  // Only entries that agree with themselves and the document they name (core/lock/verify.ts).
                  const documentAt = documentsAtBasis([capabilities.documents, history?.documents], sha256);
                  return matchLock(trustedEntries(lock, sha256, documentAt), sites, sha256).map((m) => m?.entry);
              }
            : undefined,
    });
    const repairs: RepairItem[] = found.repairs.map(({ annotation, role, ...rest }) => ({
        ...refPlace(annotation, role),
        ...rest,
    }));
    const remaining: RemainingItem[] = found.remaining.map(({ annotation, role, ...rest }) => ({
        ...refPlace(annotation, role),
        ...rest,
    }));
    const certain = repairs.filter((r) => r.certain);
    const shown = request.detail === "full" ? repairs : certain;
    const schemaErrors = checked.report.schemaErrors;
    const result: RepairResult = { repairs: shown, remaining };
    if (schemaErrors.length > 0) result.schemaErrors = schemaErrors;
    // Certain repairs may go in beside schema errors elsewhere, but only into text that parses whole.
    const repaired = parsesLeniently(request.text) ? applyCertainRepairs(request.text, found.repairs) : undefined;
    return {
        result,
        repaired: repaired && { text: repaired.text, applied: repaired.applied },
        certainCount: certain.length,
        offeredCount: new Set(repairs.filter((r) => !r.certain).map((r) => r.pointer)).size,
    };
}

/**
 * History: `--since` as given (an unknown revision is refused at once), else the file's last commit,
 * asked when a ref's repair first looks at it (git runs then): a file whose refs all hold, a lock
 * beside it or not, runs no git.
 */
function historyFor(
    request: RepairRequest,
    capabilities: RepairCapabilities,
    toRepair: boolean,
): { documents: DocumentLookup; label: string | (() => string | undefined) } | undefined {
    if (request.since !== undefined) return { documents: capabilities.history.at(request.since), label: request.since };
    const lastCommit = capabilities.history.lastCommit;
    if (!toRepair || !lastCommit) return undefined;
    let found: { documents: DocumentLookup; label: string } | null | undefined;
    const asked = () => {
        if (found === undefined) found = lastCommit() ?? null;
        return found;
    };
    return { documents: { get: (path) => asked()?.documents.get(path) }, label: () => asked()?.label };
}

function parsesLeniently(text: string): boolean {
    // Depth first: jsonc-parser recurses per level and would overflow the stack on `[[[…`.
    if (nestingBeyond(text, MAX_NESTING) !== -1) return false;
    const errors: ParseError[] = [];
    parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    return errors.length === 0;
}

/** Run steps to the end on this thread (the CLI: nothing else waits). */
export function runSteps<T>(steps: Generator<void, T>): T {
    let next = steps.next();
    while (!next.done) next = steps.next();
    return next.value;
}
