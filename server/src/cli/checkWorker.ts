/**
 * A worker thread of `check --jobs N` (docs/ci.md): checks the files it is sent, one at a time, and
 * posts each file's output in chunks as it is produced, then the file's totals.
 */
import { parentPort } from "node:worker_threads";
import { checkFileInto, DocumentCache, type FileJob, type OutputFormat } from "./checkFile";
import { CliError } from "./files";
import { ChunkedWriter } from "./stdout";

export interface WorkRequest {
    id: number;
    job: FileJob;
    format: OutputFormat;
}

export type WorkReply =
    | { id: number; kind: "piece"; text: string; startsItem: boolean }
    | { id: number; kind: "done"; totals: { validCount: number; invalidCount: number; exitCode: 0 | 1 | 2 } }
    | { id: number; kind: "failed"; message: string; internal: boolean };

const documents = new DocumentCache();
const port = parentPort;

port?.on("message", ({ id, job, format }: WorkRequest) => {
    const post = (reply: WorkReply) => port.postMessage(reply);
    // Small pieces (one JSON entry each) travel in chunks; an item's start is its own message.
    const chunks = new ChunkedWriter((text) => post({ id, kind: "piece", text, startsItem: false }));
    try {
        const totals = checkFileInto(
            job,
            format,
            (text, startsItem) => {
                if (startsItem) {
                    chunks.flush();
                    post({ id, kind: "piece", text, startsItem: true });
                } else chunks.add(text);
            },
            documents,
        );
        chunks.flush();
        documents.trim();
        post({ id, kind: "done", totals });
    } catch (error) {
        post({
            id,
            kind: "failed",
            message: error instanceof Error ? error.message : String(error),
            internal: !(error instanceof CliError),
        });
    }
});
