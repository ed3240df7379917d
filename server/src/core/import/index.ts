/** A response from any of the four providers, recognised by its shape unless the caller names it. */
import { looksLikeAnthropic, parseAnthropic, sseEvents } from "./anthropic";
import { looksLikeCohere, parseCohere } from "./cohere";
import { looksLikeGemini, parseGemini } from "./gemini";
import { looksLikeOpenAi, parseOpenAi } from "./openai";
import { ImportInputError, type ParsedResponse, PROVIDERS, type Provider } from "./types";

export * from "./types";

/** The provider whose shape `value` has, or undefined. */
export function recognizeProvider(value: unknown): Provider | undefined {
    if (looksLikeAnthropic(value)) return "anthropic";
    if (looksLikeOpenAi(value)) return "openai";
    if (looksLikeGemini(value)) return "gemini";
    if (looksLikeCohere(value)) return "cohere";
    return undefined;
}

/** The JSON of a response file (or the events of a raw Anthropic stream), or a bad-input error. */
export function parseResponseText(text: string, what: "response" | "request" = "response"): unknown {
    try {
        return JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch (error) {
        const events = what === "response" ? sseEvents(text) : undefined;
        if (events) return events;
        throw new ImportInputError(
            what === "response" ? "invalid-response" : "invalid-request",
            `the ${what} is not JSON: ${(error as Error).message}`,
        );
    }
}

export function parseProviderResponse(
    value: unknown,
    options: { from?: Provider; request?: unknown } = {},
): ParsedResponse {
    if (options.from !== undefined && !PROVIDERS.includes(options.from))
        throw new ImportInputError(
            "unknown-provider",
            `unknown provider ${JSON.stringify(options.from)}: use ${PROVIDERS.join(", ")}`,
        );
    const provider = options.from ?? recognizeProvider(value);
    if (provider === undefined)
        throw new ImportInputError(
            "unknown-provider",
            "the response is none of the shapes import reads (an Anthropic message or its stream, an OpenAI response, a Gemini generateContent response, a Cohere chat response): name it with --from",
        );
    switch (provider) {
        case "anthropic":
            return parseAnthropic(value, options.request);
        case "openai":
            return parseOpenAi(value);
        case "gemini":
            return parseGemini(value);
        case "cohere":
            return parseCohere(value);
    }
}
