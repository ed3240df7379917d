/**
 * A bound on the MCP server's load (docs/agents.md, "Load"): at most `running` tool calls are worked
 * on at once (interleaved on the one thread: each long one yields between files and refs), up to
 * `waiting` more wait their turn in order, and a call past both is refused at once with the code
 * `busy` and a hint of when to retry. What a call holds in memory (its documents, its report) is then
 * held by `running` calls at most, whatever a client sends: a thousand concurrent checks peaked at
 * 3.1 GB before this gate.
 */

export interface CallBounds {
    /** Calls worked on at once. */
    running: number;
    /** Calls waiting for a turn, beyond those; any further call is refused. */
    waiting: number;
    /** What a refusal suggests waiting before trying again, in milliseconds. */
    retryAfterMs: number;
}

export const CALL_BOUNDS: CallBounds = { running: 4, waiting: 64, retryAfterMs: 200 };

/** What the gate has done so far (a test's and a log's counts). */
export interface GateCounts {
    admitted: number;
    /** Calls that waited for a turn before running. */
    queued: number;
    refused: number;
    /** The most calls running at once, and waiting at once. */
    peakRunning: number;
    peakWaiting: number;
}

/** Why a call was refused: the counts a model can read, and when to come back. */
export interface Refusal {
    running: number;
    waiting: number;
    retryAfterMs: number;
}

export class CallGate {
    readonly counts: GateCounts = { admitted: 0, queued: 0, refused: 0, peakRunning: 0, peakWaiting: 0 };
    private running = 0;
    private readonly waiting: (() => void)[] = [];

    constructor(
        private readonly bounds: CallBounds = CALL_BOUNDS,
        /** Awaited before each call runs: the answers already given are written out (lineTransport.ts). */
        private readonly ready: () => Promise<void> = async () => {},
    ) {}

    /**
     * Runs `call` when its turn comes, or refuses it at once (the refusal returned, `call` never run)
     * when `waiting` calls are already waiting.
     */
    async run<T>(call: () => Promise<T>): Promise<{ done: T } | { refused: Refusal }> {
        if (this.running >= this.bounds.running) {
            if (this.waiting.length >= this.bounds.waiting) {
                this.counts.refused++;
                return {
                    refused: {
                        running: this.running,
                        waiting: this.waiting.length,
                        retryAfterMs: this.bounds.retryAfterMs,
                    },
                };
            }
            this.counts.queued++;
            await new Promise<void>((resolve) => {
                this.waiting.push(resolve);
                this.counts.peakWaiting = Math.max(this.counts.peakWaiting, this.waiting.length);
            });
        } else this.running++;
        // A turn handed over by `release` keeps the running count as it was: the slot passes on.
        this.counts.admitted++;
        this.counts.peakRunning = Math.max(this.counts.peakRunning, this.running);
        try {
            await this.ready();
            return { done: await call() };
        } finally {
            this.release();
        }
    }

    private release(): void {
        const next = this.waiting.shift();
        if (next) next();
        else this.running--;
    }
}

/** The message of a refusal, for a model: what is going on, and when to call again. */
export function busyMessage(refusal: Refusal): string {
    return (
        `the server is working on ${refusal.running} calls with ${refusal.waiting} more waiting: ` +
        `call again in ${refusal.retryAfterMs} ms or later (nothing was done)`
    );
}
