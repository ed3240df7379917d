/**
 * Which language model tool calls change files, and what VS Code asks the user before them
 * (docs/agents.md). Pure: no vscode, so it is unit-tested.
 */

/** The calls that change files: only `repair` with `write: true`. */
export function writes(tool: string, input: unknown): boolean {
    return (
        tool === "repair" &&
        typeof input === "object" &&
        input !== null &&
        (input as { write?: unknown }).write === true
    );
}

/** The confirmation shown before a call that writes (Markdown). */
export function confirmation(input: unknown): { title: string; message: string } {
    const file = (input as { file?: unknown } | null)?.file;
    const shown = typeof file === "string" ? `\`${file.replace(/`/g, "'")}\`` : "the annotation file";
    return {
        title: "Write SourceCheck repairs?",
        message: `Rewrite the broken refs of ${shown} with their certain repairs. Only the repaired values change, as one edit that undo reverts.`,
    };
}
