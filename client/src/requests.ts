/**
 * Requests to the language server, with failures turned into one readable message: the client never
 * resolves refs itself, so when the server cannot answer, the user must learn why.
 */
import { ErrorCodes, type RequestType, ResponseError, State } from "vscode-languageclient/node";
import type { SourceCheckClient } from "./languageClient";

export class ServerUnavailableError extends Error {}

export async function ask<P, R>(sc: SourceCheckClient, type: RequestType<P, R, void>, params: P): Promise<R> {
    const state = sc.client.state;
    if (state === State.Stopped) {
        throw new ServerUnavailableError(
            "The SourceCheck language server is not running. Run “SourceCheck: Restart Language Server”.",
        );
    }
    try {
        return await sc.client.sendRequest(type, params);
    } catch (error) {
        throw new ServerUnavailableError(describeRequestError(type.method, error));
    }
}

function describeRequestError(method: string, error: unknown): string {
    if (error instanceof ResponseError) {
        if (error.code === ErrorCodes.MethodNotFound) {
            return `The SourceCheck language server does not implement ${method}; rebuild the extension (npm run build).`;
        }
        if (error.code === ErrorCodes.ConnectionInactive) {
            return "The SourceCheck language server is not running. Run “SourceCheck: Restart Language Server”.";
        }
        return `The SourceCheck language server could not answer ${method}: ${error.message}`;
    }
    const message = error instanceof Error ? error.message : String(error);
    return `The SourceCheck language server could not answer ${method}: ${message}`;
}

/** A message for the user from any error, never a stack trace. */
export function messageOf(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
