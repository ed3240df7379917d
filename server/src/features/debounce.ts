/**
 * A debounced action: each `schedule()` restarts the wait, so a burst of keystrokes costs one run;
 * `cancel()` drops the pending run when its owner runs the work itself. The analysis (re-checks) and
 * the ref follower (edits to follow) each keep one.
 */
export class Debounce {
    private timer: NodeJS.Timeout | undefined;

    constructor(
        private readonly delayMs: number,
        private readonly action: () => void,
    ) {}

    schedule(): void {
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => {
            this.timer = undefined;
            this.action();
        }, this.delayMs);
    }

    cancel(): void {
        if (this.timer) clearTimeout(this.timer);
        this.timer = undefined;
    }
}
