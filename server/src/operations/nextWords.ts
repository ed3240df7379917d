/**
 * A next step worded for the one who reads it (docs/contract.md, "Next steps"): the CLI names the
 * command, an agent tool names the tool and its arguments, the editor names the quick fix or
 * command. The operation only says which action (core/nextStep.ts).
 */
import type { NextStep } from "../core/nextStep";
import type { RefPlace } from "./numbers";

export type FrontEnd = "cli" | "tool" | "editor";

export interface StepContext {
    /** The annotation file, as its reader named it. */
    file: string;
    place: RefPlace;
    /** How tools are named where the step is read (`annotate`, or `sourcecheck_annotate` in VS Code). */
    toolName?: (name: string) => string;
}

const q = JSON.stringify;

export function wordNext(step: NextStep, frontEnd: FrontEnd, context: StepContext): string {
    if (frontEnd === "cli") return cliWords(step, context);
    if (frontEnd === "tool") return toolWords(step, context);
    return editorWords(step);
}

function near(step: NextStep): string {
    return step.line !== undefined ? ` near line ${step.line} of ${step.path}` : step.path ? ` in ${step.path}` : "";
}

function cliWords(step: NextStep, { file, place }: StepContext): string {
    const cite = `\`sourcecheck cite ${step.path ?? "PATH"} QUOTE\``;
    switch (step.action) {
        case "accept-text":
            return `read the new text${near(step)}: if it still bears on the claim as cited (supports, or refutes for a refuting source), accept it with \`sourcecheck lock --accept ${place.annotation} ${file}\`; otherwise cite other text with ${cite}`;
        case "choose-candidate":
            return `choose one of the ${step.candidates ?? "proposed"} candidates above and write it into the ref, or quote the text again with ${cite}`;
        case "fix-path":
            return `no document ${q(step.path ?? "")}: correct the ref's path (\`sourcecheck check ${file}\` names the nearest)`;
        case "remove-source":
            return `remove the source: \`sourcecheck annotate ${file} --remove ${place.annotation} --write\` and annotate it again without it`;
        case "lock":
            return `lock the refs: \`sourcecheck lock ${file}\``;
        case "re-anchor":
            return `re-anchor the ref: \`sourcecheck repair --write ${file}\``;
        default:
            return `quote the text meant${near(step)} again with ${cite} (or \`sourcecheck annotate --replace ${place.annotation}\`), or fix the ref by hand`;
    }
}

function toolWords(step: NextStep, { file, place, toolName = (name) => name }: StepContext): string {
    const target =
        place.role === "source"
            ? `replace: { annotation: ${place.annotation}, source: ${place.source} }, sources: [{ path, quote, polarity, confidence }]`
            : `replace: ${place.annotation}, claim: { path, quote }, sources`;
    const annotate = `${toolName("annotate")} { file: ${q(file)}, ${target}, write: true }`;
    switch (step.action) {
        case "accept-text":
            return `read the new text${near(step)} (${toolName("index")}); if it still bears on the claim as cited (supports, or refutes for a refuting source) call ${toolName("lock")} { file: ${q(file)}, accept: [${place.annotation}], write: true }, otherwise cite other text with ${annotate}`;
        case "choose-candidate":
            return `${toolName("repair")} { file: ${q(file)}, detail: "full" } lists the ${step.candidates ?? ""} candidates; check their text, then write the one meant with ${annotate}`;
        case "fix-path":
            return `${q(step.path ?? "")} names no document: find the right one with ${toolName("evidence")}, then ${annotate}`;
        case "remove-source":
            return place.role === "source"
                ? `${toolName("annotate")} { file: ${q(file)}, remove: { annotation: ${place.annotation}, source: ${place.source} }, write: true }`
                : `${toolName("annotate")} { file: ${q(file)}, remove: ${place.annotation}, write: true }`;
        case "lock":
            return `${toolName("lock")} { file: ${q(file)}, write: true }`;
        case "re-anchor":
            return `${toolName("repair")} { file: ${q(file)}, write: true }`;
        default:
            return `quote the text meant${near(step)} again: ${annotate} (${toolName("index")} shows the lines)`;
    }
}

function editorWords(step: NextStep): string {
    switch (step.action) {
        case "accept-text":
            return 'if the new text still bears on the claim as cited (supports, or refutes for a refuting source), Quick Fix "Accept the new text"; otherwise cite other text';
        case "choose-candidate":
            return "Quick Fix: choose one of the candidates";
        case "fix-path":
            return "correct the ref's path (completion lists the documents)";
        case "remove-source":
            return "delete the source from the annotation";
        case "lock":
            return 'run "SourceCheck: Lock Refs"';
        case "re-anchor":
            return 'Quick Fix: "Fix all SourceCheck refs"';
        default:
            return `select the text meant${near(step)} and run "Cite a Quote…" or "Add Selection as Supporting Source"`;
    }
}
