/** Reading untrusted response JSON without trusting its types: each reader says what it expected. */
import { ImportInputError } from "./types";

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stringOr(value: unknown): string | undefined {
    return typeof value === "string" ? value : undefined;
}

export function numberOr(value: unknown): number | undefined {
    return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A non-negative integer offset, or undefined. */
export function offsetOr(value: unknown): number | undefined {
    return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function arrayOr(value: unknown): unknown[] {
    return Array.isArray(value) ? value : [];
}

export function invalid(where: string, message: string): ImportInputError {
    return new ImportInputError("invalid-response", `${where}: ${message}`);
}

/** The names a document goes by, without blanks and repeats. */
export function names(...values: unknown[]): string[] {
    const out: string[] = [];
    for (const value of values) {
        if (typeof value === "string" && value.trim() !== "" && !out.includes(value)) out.push(value);
    }
    return out;
}
