/**
 * The frame of a `check` run's output around each file's pieces (docs/ci.md): the `files` array of
 * the JSON report, the SARIF log, the closing summary line. Pieces are handed on in chunks as they
 * come; only the totals are kept, so memory does not grow with the report.
 */

import { EXIT, type ExitStatus, worstExit } from "../../../shared/exitCodes";
import type { FileTotals, OutputFormat } from "./checkFile";
import type { PieceSink } from "./checkMany";
import { sarifFrame } from "./sarif";
import { ChunkedWriter } from "./stdout";

export interface RunTotals extends FileTotals {
    files: number;
}

export class RunWriter implements PieceSink {
    private readonly out: ChunkedWriter;
    private items = 0;
    private readonly totals: RunTotals = { files: 0, validCount: 0, invalidCount: 0, exitCode: EXIT.clean };
    private tail = "";

    constructor(
        private readonly format: OutputFormat,
        /** One FILE: the one-file report (docs/ci.md); else the `files` shape. */
        private readonly many: boolean,
        write: (text: string) => void,
        version: string,
        /** The repository root SARIF locations are relative to. */
        sourceRoot: string,
    ) {
        this.out = new ChunkedWriter(write);
        if (format === "sarif") {
            const frame = sarifFrame(version, sourceRoot);
            this.out.add(frame.head);
            this.tail = frame.tail;
        } else if (format === "json" && many) {
            this.out.add('{\n  "files": [');
        }
    }

    piece(text: string, startsItem: boolean): void {
        if (startsItem) {
            if (this.items++ > 0) this.out.add(",\n");
            else if (this.format === "json" && this.many) this.out.add("\n");
        }
        this.out.add(text);
    }

    fileDone(totals: FileTotals): void {
        this.totals.files++;
        this.totals.validCount += totals.validCount;
        this.totals.invalidCount += totals.invalidCount;
        this.totals.exitCode = worstExit([this.totals.exitCode, totals.exitCode]);
        if (this.format === "json" && !this.many) this.out.add("\n");
    }

    /** Close the output; the exit status of the run (the worst of its files). */
    end(): ExitStatus {
        const t = this.totals;
        if (this.format === "sarif") this.out.add(this.tail);
        else if (this.format === "json" && this.many) {
            this.out.add(
                `${this.items > 0 ? "\n  " : ""}],\n  "validCount": ${t.validCount},\n  "invalidCount": ${t.invalidCount},\n  "ok": ${t.exitCode === EXIT.clean},\n  "exitCode": ${t.exitCode}\n}\n`,
            );
        } else if (this.many || this.format === "github") {
            const total = t.validCount + t.invalidCount;
            this.out.add(
                `${t.files} file${t.files === 1 ? "" : "s"}, ${total} annotation${total === 1 ? "" : "s"}: ` +
                    `${t.validCount} valid, ${t.invalidCount} invalid (exit ${t.exitCode})\n`,
            );
        }
        this.out.flush();
        return t.exitCode;
    }
}
