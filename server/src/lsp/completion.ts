/** Completion in annotation files: paths, boundary strings, and what the schema allows elsewhere. */
import type { ServerContext } from "./context";

export function registerCompletion({ connection, service }: ServerContext): void {
    // The service guards its own parts (the scan may be awaited first); a failure answers nothing.
    connection.onCompletion((params) => service.completion(params));
}
