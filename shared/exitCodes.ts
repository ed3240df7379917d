/**
 * Exit statuses of every `sourcecheck` command (docs/cli.md, "Exit statuses"), and the `exitCode` of
 * every `--json` envelope and tool result: named once, never written as literals
 * (`test/unit/exitCodes.test.ts` fails on a literal exit code anywhere in the sources).
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

/**
 * TraceCite's statuses, kept by `trace`, `notes` and `report-check` so its users' CI scripts keep
 * working: 0 pass, 2 a quote mismatched, 1 bad usage or input; 3 is still an internal error.
 */
export const TRACECITE_EXIT = {
    pass: 0,
    usage: 1,
    mismatch: 2,
    internal: EXIT.internal,
} as const;

export type ExitStatus = (typeof EXIT)[keyof typeof EXIT];

/** The status a report or an operation can name: every one but the internal error, which only a process has. */
export type ReportExitStatus = Exclude<ExitStatus, typeof EXIT.internal>;

/** The worst of several statuses (a run's is its worst file's); clean when there are none. */
export function worstExit<T extends ExitStatus>(statuses: Iterable<T>): T | typeof EXIT.clean {
    let worst: T | typeof EXIT.clean = EXIT.clean;
    for (const status of statuses) if (status > worst) worst = status;
    return worst;
}

/** The language server's status when an uncaught error takes it down; the client then starts a fresh one. */
export const SERVER_CRASH_EXIT = 1;
