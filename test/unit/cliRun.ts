/** The CLI run in process on a CliIo that keeps what it writes (the synchronous commands). */
import { main } from "../../server/src/cli";
import type { CliIo } from "../../server/src/cli/commands";

export interface CliRun {
    status: number;
    stdout: string;
    stderr: string;
}

export function runCli(args: string[], options: { cwd: string; stdin?: string }): CliRun {
    let stdout = "";
    let stderr = "";
    const io: CliIo = {
        cwd: options.cwd,
        stdout: (t) => {
            stdout += t;
        },
        stderr: (t) => {
            stderr += t;
        },
        readStdin: () => Buffer.from(options.stdin ?? ""),
        stdinIsPiped: options.stdin !== undefined,
        version: "test",
    };
    return { status: main(args, io) as number, stdout, stderr };
}
