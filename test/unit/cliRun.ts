/** The CLI run in process on a CliIo that keeps what it writes. */
import { main } from "../../server/src/cli";
import type { CliIo } from "../../server/src/cli/commands";

export interface CliRun {
    status: number;
    stdout: string;
    stderr: string;
}

/** A CliIo that keeps what is written to it, and the run's outcome once it has a status. */
function capturingIo(options: { cwd: string; stdin?: string }) {
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
    };
    return { io, outcome: (status: number): CliRun => ({ status, ...out }) };
}

/** The synchronous commands. */
export function runCli(args: string[], options: { cwd: string; stdin?: string }): CliRun {
    const { io, outcome } = capturingIo(options);
    return outcome(main(args, io) as number);
}

/** A command entry point other than main (a command run with a stub fetcher), on the same capturing CliIo. */
export async function runWithIo(
    run: (io: CliIo) => number | Promise<number>,
    options: { cwd: string; stdin?: string },
): Promise<CliRun> {
    const { io, outcome } = capturingIo(options);
    return outcome(await run(io));
}

/** Any command, awaiting those that answer with a promise (check over folders). */
export async function runCliAsync(args: string[], options: { cwd: string; stdin?: string }): Promise<CliRun> {
    const { io, outcome } = capturingIo(options);
    return outcome(await main(args, io));
}
