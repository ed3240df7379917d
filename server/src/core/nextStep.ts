/**
 * What to do about a problem, as data (docs/contract.md, "Next steps"): the operation says which
 * action; each front end words it for its user (a command, a tool call, a quick fix). Lines count from 1.
 */
export type NextAction =
    | "cite-again"
    | "choose-candidate"
    | "accept-text"
    | "re-anchor"
    | "remove-source"
    | "fix-path"
    | "lock";

export const NEXT_ACTIONS: readonly NextAction[] = [
    "cite-again",
    "choose-candidate",
    "accept-text",
    "re-anchor",
    "remove-source",
    "fix-path",
    "lock",
];

export interface NextStep {
    action: NextAction;
    /** The document the step concerns (the ref's path). */
    path?: string;
    /** Where in it, from 1 (where the text was last seen, or the ref's start line). */
    line?: number;
    /** With `choose-candidate`: how many candidates were offered. */
    candidates?: number;
}
