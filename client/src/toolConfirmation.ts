/**
 * Which language model tool calls change files, and what VS Code asks the user before them
 * (docs/agents.md). Pure: no vscode, so it is unit-tested.
 */

/** The tools that may write, each only when called with `write: true`. */
const WRITING_TOOLS = new Set(["repair", "annotate", "lock", "import"]);

/** The calls that change files: `repair`, `annotate`, `lock` and `import` with `write: true`. */
export function writes(tool: string, input: unknown): boolean {
    return (
        WRITING_TOOLS.has(tool) &&
        typeof input === "object" &&
        input !== null &&
        (input as { write?: unknown }).write === true
    );
}

/** The confirmation shown before a call that writes (Markdown). */
export function confirmation(input: unknown, tool = "repair"): { title: string; message: string } {
    const file = (input as { file?: unknown } | null)?.file;
    const shown = typeof file === "string" ? `\`${file.replace(/`/g, "'")}\`` : "the annotation file";
    if (tool === "annotate") {
        const claim = (input as { claim?: { path?: unknown } } | null)?.claim?.path;
        const about = typeof claim === "string" ? ` for a claim of \`${claim.replace(/`/g, "'")}\`` : "";
        if ((input as { unsourced?: unknown }).unsourced === true) {
            // A claim searched with no source found goes to the file's `unsourced` list (docs/annotate.md).
            const remove = (input as { remove?: unknown }).remove;
            return {
                title: "Record a claim with no source found?",
                message:
                    typeof remove === "number"
                        ? `Remove entry ${remove} of the unsourced list of ${shown}, as one edit that undo reverts.`
                        : `Record ${about === "" ? "the claim" : about.slice(" for ".length)} as searched with no source found in ${shown} (its unsourced list; the file is created when missing), as one edit that undo reverts.`,
            };
        }
        return {
            title: "Write a SourceCheck annotation?",
            message: `Append an annotation${about} to ${shown} (created when missing), as one edit that undo reverts.`,
        };
    }
    if (tool === "import") {
        const answer = (input as { answer?: unknown } | null)?.answer;
        const named = typeof answer === "string" ? ` \`${answer.replace(/`/g, "'")}\`` : "";
        return {
            title: "Import citations from a model response?",
            message: `Write the answer${named} and an annotation file citing the workspace's documents.`,
        };
    }
    if (tool === "lock") {
        return {
            title: "Write a SourceCheck lock?",
            message: `Record what each ref of ${shown} cites now in the lock file beside it, accepting any changed cited text.`,
        };
    }
    return {
        title: "Write SourceCheck repairs?",
        message: `Rewrite the broken refs of ${shown} with their certain repairs. Only the repaired values change, as one edit that undo reverts.`,
    };
}
