/**
 * What the server process does with errors nothing caught (docs/architecture.md). An exception that
 * reached the event loop may have left any state half-updated, so the server logs it and exits with
 * status 1: the client's restart policy then starts a fresh server (and gives up, with a Restart
 * button, after repeated crashes). A rejected promise nobody awaited changes no state by itself, so
 * it is logged and the server carries on.
 */
import { SERVER_CRASH_EXIT } from "../../shared/exitCodes";

/** The part of `process` this needs, so tests can hand in a fake. */
export interface GuardedProcess {
    on(event: "uncaughtException", listener: (error: Error) => void): unknown;
    on(event: "unhandledRejection", listener: (reason: unknown) => void): unknown;
    exit(code: number): void;
}

export function exitOnUncaughtErrors(target: GuardedProcess, log: (message: string) => void): void {
    target.on("uncaughtException", (error) => {
        try {
            log(`sourcecheck: uncaught exception, the server exits for a restart: ${error?.stack ?? String(error)}`);
        } finally {
            target.exit(SERVER_CRASH_EXIT);
        }
    });
    target.on("unhandledRejection", (reason) => {
        log(`sourcecheck: unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`);
    });
}
