/**
 * `repair`'s text for a model, brief (docs/agents.md, "repair"): the certain repairs written or
 * proposed, then one line per ref still broken with the tool call to make next. Candidates that
 * are not certain are counted, not listed (`detail: "full"` lists them).
 */
import { pointerWithReading } from "../../../shared/numbering";
import { wordNext } from "../operations/nextWords";
import { placeLabel } from "../operations/numbers";
import type { RepairItem, RepairPlan } from "../operations/repair";

export function repairBrief(
    file: string,
    plan: RepairPlan,
    written: number,
    write: boolean,
    toolName?: (name: string) => string,
): string {
    const { repairs, remaining, schemaErrors } = plan.result;
    const certain = repairs.filter((r) => r.certain);
    const lines: string[] = [];
    if (schemaErrors) {
        const first = schemaErrors[0];
        lines.push(
            `${file} fails the schema (${schemaErrors.length}): ${first.code} at ${pointerWithReading(first.pointer)}: ${first.message}`,
        );
    }
    if (certain.length === 0 && remaining.length === 0) {
        lines.push(`${file}: every ref resolves${plan.result.schemaErrors ? "" : " to its text"}; nothing to repair.`);
        return lines.join("\n");
    }
    if (certain.length > 0) {
        const done = write
            ? written > 0
                ? `${written} written to ${file}`
                : "not written (the file does not parse whole)"
            : `proposed: call ${(toolName ?? ((n: string) => n))("repair")} with write: true to write them`;
        lines.push(`${certain.length} certain repair${certain.length === 1 ? "" : "s"}, ${done}:`);
        for (const repair of certain) lines.push(`- ${describeRepair(repair)}`);
    }
    if (remaining.length > 0) {
        lines.push(`${remaining.length} ref${remaining.length === 1 ? "" : "s"} left to you:`);
        for (const left of remaining) {
            const next = wordNext(left.next, "tool", { file, place: left, toolName });
            lines.push(`- ${placeLabel(left)}: ${left.code}: ${left.message}. Next: ${next}`);
        }
    }
    return lines.join("\n");
}

function describeRepair(repair: RepairItem): string {
    const { after } = repair;
    return `${placeLabel(repair)}: ${repair.reason} to ${after.path}:${after.start.line}-${after.end.line} (${repair.evidence})`;
}
