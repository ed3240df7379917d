/**
 * The CLI's command line as a person meets it: an unknown command names the nearest ones (exit 2),
 * `--help` and `COMMAND --help` state every command's usage and exit statuses, and a CliError is
 * told by its code, not by the class of one copy of the module.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliError, isCliError } from "../../server/src/cli/files";
import { allCommands } from "../../server/src/cli/registry";
import { runCli } from "./cliRun";

const COMMANDS = allCommands();
const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "sc-help-"));

describe("CLI: commands, help and exit statuses", () => {
    it("an unknown command names the nearest commands and exits 2", () => {
        const run = runCli(["reapir", "answer.json"], { cwd });
        assert.equal(run.status, 2);
        assert.match(run.stderr, /^sourcecheck: unknown command "reapir"; the nearest: repair, /);
        assert.equal(run.stdout, "");
        const far = runCli(["zzzz"], { cwd });
        assert.equal(far.status, 2);
        assert.match(far.stderr, /unknown command "zzzz"; the nearest: \w/);
    });

    it("a word that names a file or folder is still checked, not taken for a command", () => {
        fs.writeFileSync(path.join(cwd, "answers"), "[]");
        const run = runCli(["answers"], { cwd });
        assert.doesNotMatch(run.stderr, /unknown command/);
        assert.equal(run.status, 0, run.stderr);
    });

    it("sourcecheck --help lists every command with its exit statuses", () => {
        const run = runCli(["--help"], { cwd });
        assert.equal(run.status, 0);
        assert.match(run.stdout, /Exit status: 0 all refs resolve; 1 a ref fails to resolve; 2 /);
        for (const command of COMMANDS) {
            assert.ok(run.stdout.includes(command.usage.trimEnd()), `${command.name}'s usage`);
            assert.ok(run.stdout.includes(`exit status: ${command.exitCodes}`), `${command.name}'s exit statuses`);
        }
    });

    it("sourcecheck COMMAND --help prints that command's usage and exit statuses", () => {
        for (const command of COMMANDS) {
            for (const flag of ["--help", "-h"]) {
                const run = runCli([command.name, flag], { cwd });
                assert.equal(run.status, 0, `${command.name} ${flag}`);
                assert.equal(run.stdout, `Usage:\n${command.usage.trimEnd()}\n\nExit status: ${command.exitCodes}\n`);
            }
        }
    });

    it("TraceCite's commands keep its exit codes (0 pass, 2 findings, 1 usage) and say so", async () => {
        for (const name of ["trace", "notes", "report-check"]) {
            const command = COMMANDS.find((c) => c.name === name);
            assert.ok(command, name);
            assert.match(command.exitCodes, /^0 [^;]+; 2 [^;]+; 1 bad usage/);
            // Some of these commands answer asynchronously (they may fetch).
            const status = await Promise.resolve(runCli([name, "--no-such-option"], { cwd }).status);
            assert.equal(status, 1, `${name} bad usage`);
        }
    });

    it("a CliError is recognised by its code, whichever copy of the module made it", () => {
        assert.ok(isCliError(new CliError("x", 1)));
        const fromAnotherCopy = Object.assign(new Error("x"), { code: "sourcecheck-cli-error", exitCode: 2 });
        assert.ok(isCliError(fromAnotherCopy));
        assert.ok(!isCliError(new Error("x")));
        assert.ok(!isCliError({ code: "sourcecheck-cli-error" }), "an exit code is part of it");
    });
});
