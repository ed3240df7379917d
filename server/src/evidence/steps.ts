/**
 * A long search as steps (docs/evidence.md, "Progress and cancel"): the index sync and the search are
 * generators that yield between slices of files and between checked candidates. The CLI runs them
 * straight through; the editor's server runs them between turns of its event loop, so it can report
 * progress and hear a cancellation while searching.
 */

export interface SearchStep {
    /** `reading`: files read into the index; `searching`: candidates checked against their files. */
    phase: "reading" | "searching";
    done: number;
    total: number;
}

export type Steps<R> = Generator<SearchStep, R, void>;

/** All the steps at once, for callers that wait anyway (the CLI, MCP, the agent tools). */
export function runSteps<R>(steps: Steps<R>): R {
    for (;;) {
        const next = steps.next();
        if (next.done) return next.value;
    }
}

/**
 * The steps with `between` awaited after each; when it throws (a cancellation), the generator is
 * closed (its `finally` blocks run) and the error passed on.
 */
export async function runStepsBetween<R>(
    steps: Steps<R>,
    between: (step: SearchStep) => Promise<void> | void,
): Promise<R> {
    for (;;) {
        const next = steps.next();
        if (next.done) return next.value;
        try {
            await between(next.value);
        } catch (error) {
            steps.return(undefined as R);
            throw error;
        }
    }
}
