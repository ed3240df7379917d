/**
 * Every request object of shared/requestTypes.ts (the ones the client sends) is registered by the
 * server: sent with harmless parameters, none is answered "method not found".
 */
import * as assert from "node:assert/strict";
import { RequestType } from "vscode-languageserver-protocol";
import * as requestTypes from "../../shared/requestTypes";
import { copyDemo, startClient } from "./harness";

const METHOD_NOT_FOUND = -32601;

describe("shared request types", () => {
    it("the server answers every request the client may send", async () => {
        const requests = Object.values(requestTypes).filter((value) => value instanceof RequestType);
        assert.ok(requests.length >= 14, `only ${requests.length} request objects`);
        const client = await startClient({ root: copyDemo(), pull: true });
        try {
            const uri = client.uri("answer.sourcecheck.json");
            for (const request of requests) {
                const params =
                    request.method.endsWith("annotationFiles") || request.method.endsWith("citedDocuments")
                        ? undefined
                        : {
                              uri,
                              annotationUri: uri,
                              tool: "index",
                              input: {},
                              query: "x",
                              range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
                          };
                try {
                    await client.connection.sendRequest(request.method, params);
                } catch (error) {
                    assert.notEqual(
                        (error as { code?: number }).code,
                        METHOD_NOT_FOUND,
                        `${request.method} is not registered`,
                    );
                }
            }
        } finally {
            await client.stop();
        }
    });
});
