/** The CLI run in process on a CliIo that keeps what it writes. */
import { main } from "../../server/src/cli";
import type { CliIo } from "../../server/src/cli/commands";

export interface CliRun {
    status: number;
    stdout: string;
    stderr: string;
}

/** Where a run happens: its folder, what is piped into stdin, and the pages its fetches get (a stub: no network). */
export interface RunOptions {
    cwd: string;
    stdin?: string;
    fetchPage?: CliIo["fetchPage"];
}

/** A CliIo that keeps what is written to it, and the run's outcome once it has a status. */
function capturingIo(options: RunOptions) {
    const out = { stdout: "", stderr: "" };
    const io: CliIo = {
        cwd: options.cwd,
        stdout: (t) => {
            out.stdout += t;
        },
        stderr: (t) => {
            out.stderr += t;
        },
        readStdin: () => Buffer.from(options.stdin ?? ""),
        stdinIsPiped: options.stdin !== undefined,
        version: "test",
        ...(options.fetchPage ? { fetchPage: options.fetchPage } : {}),
    };
    return { io, outcome: (status: number): CliRun => ({ status, ...out }) };
}

/** The synchronous commands. */
export function runCli(args: string[], options: RunOptions): CliRun {
    const { io, outcome } = capturingIo(options);
    return outcome(main(args, io) as number);
}

/** A command entry point other than main (a command run with a stub fetcher), on the same capturing CliIo. */
export async function runWithIo(run: (io: CliIo) => number | Promise<number>, options: RunOptions): Promise<CliRun> {
    const { io, outcome } = capturingIo(options);
    return outcome(await run(io));
}

/** Any command, awaiting those that answer with a promise (check over folders). */
export async function runCliAsync(args: string[], options: RunOptions): Promise<CliRun> {
    const { io, outcome } = capturingIo(options);
    return outcome(await main(args, io));
}
