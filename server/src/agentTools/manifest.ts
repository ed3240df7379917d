/**
 * The `contributes.languageModelTools` entries of package.json (docs/agents.md), derived from the tool
 * definitions: VS Code's name `sourcecheck_<tool>`, `#sourcecheck<Tool>` in prompts. What a person
 * reads (display name, user description) is a `%key%` placeholder whose English text goes to
 * package.nls.json (`languageModelToolTexts`), so it can be translated (docs/localization.md); the
 * model description stays English, for the model.
 */
import { jsonSchemaOf, TOOL_DEFINITIONS, type ToolName } from "./schemas";

const FOR_PEOPLE: Record<ToolName, { userDescription: string; icon: string }> = {
    index: { userDescription: "Show a document with line numbers, for citing", icon: "$(list-ordered)" },
    cite: { userDescription: "Turn a verbatim quote into the SourceCheck ref that cites it", icon: "$(quote)" },
    annotate: { userDescription: "Write a SourceCheck annotation from verbatim quotes", icon: "$(note)" },
    check: { userDescription: "Check SourceCheck annotations and report each ref that fails", icon: "$(pass)" },
    repair: { userDescription: "Propose (and on request write) repairs for broken refs", icon: "$(wrench)" },
    evidence: { userDescription: "Search the workspace's documents for passages behind a claim", icon: "$(search)" },
    lock: { userDescription: "Lock what each ref cites, so changed sources are caught", icon: "$(lock)" },
    import: {
        userDescription: "Import a model API response's citations as SourceCheck annotations",
        icon: "$(cloud-download)",
    },
};

export function vscodeToolName(tool: ToolName): string {
    return `sourcecheck_${tool}`;
}

/** The package.nls.json keys and English texts of the tools' display names and user descriptions. */
export function languageModelToolTexts(): Record<string, string> {
    const texts: Record<string, string> = {};
    for (const tool of TOOL_DEFINITIONS) {
        texts[`tool.${vscodeToolName(tool.name)}.displayName`] = `SourceCheck: ${tool.title}`;
        texts[`tool.${vscodeToolName(tool.name)}.userDescription`] = FOR_PEOPLE[tool.name].userDescription;
    }
    return texts;
}

export function languageModelTools(): Record<string, unknown>[] {
    return TOOL_DEFINITIONS.map((tool) => ({
        name: vscodeToolName(tool.name),
        displayName: `%tool.${vscodeToolName(tool.name)}.displayName%`,
        toolReferenceName: `sourcecheck${tool.name[0].toUpperCase()}${tool.name.slice(1)}`,
        canBeReferencedInPrompt: true,
        icon: FOR_PEOPLE[tool.name].icon,
        tags: ["sourcecheck", "citations"],
        userDescription: `%tool.${vscodeToolName(tool.name)}.userDescription%`,
        modelDescription: tool.description,
        inputSchema: jsonSchemaOf(tool.listedInput ?? tool.input, "input"),
    }));
}
