/**
 * Exit statuses of every `sourcecheck` command but TraceCite's (docs/cli.md, "Exit statuses"), and the
 * `exitCode` of every `--json` envelope and tool result: named once, never written as literals.
 */
export const EXIT = {
    /** Nothing wrong. */
    clean: 0,
    /** Findings: a broken ref, a failed gate, a quote not cited. */
    findings: 1,
    /** Bad usage or input: an unknown option, unreadable or invalid input, an unusable lock. */
    usage: 2,
    /** An internal error. */
    internal: 3,
} as const;

export type ExitStatus = (typeof EXIT)[keyof typeof EXIT];
