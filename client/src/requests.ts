/**
 * Requests to the language server, with failures turned into one readable message: the client never
 * resolves refs itself, so when the server cannot answer, the user must learn why.
 */
import * as vscode from "vscode";
import { ErrorCodes, type RequestType, ResponseError, State } from "vscode-languageclient/node";
import type { SourceCheckClient } from "./languageClient";

export class ServerUnavailableError extends Error {}

export async function ask<P, R>(
    sc: SourceCheckClient,
    type: RequestType<P, R, void>,
    params: P,
    token?: vscode.CancellationToken,
): Promise<R> {
    const state = sc.client.state;
    if (state === State.Stopped) {
        throw new ServerUnavailableError(notRunning());
    }
    try {
        return await sc.client.sendRequest(type, params, token);
    } catch (error) {
        throw new ServerUnavailableError(describeRequestError(type.method, error));
    }
}

function describeRequestError(method: string, error: unknown): string {
    if (error instanceof ResponseError) {
        if (error.code === ErrorCodes.MethodNotFound) {
            return vscode.l10n.t(
                "The SourceCheck language server does not implement {0}; rebuild the extension (npm run build).",
                method,
            );
        }
        if (error.code === ErrorCodes.ConnectionInactive) {
            return notRunning();
        }
        return vscode.l10n.t("The SourceCheck language server could not answer {0}: {1}", method, error.message);
    }
    const message = error instanceof Error ? error.message : String(error);
    return vscode.l10n.t("The SourceCheck language server could not answer {0}: {1}", method, message);
}

function notRunning(): string {
    return vscode.l10n.t("The SourceCheck language server is not running. Run “SourceCheck: Restart Language Server”.");
}

/** A message for the user from any error, never a stack trace. */
export function messageOf(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
