/**
 * Bounded echoes (docs/agents.md, "Bounded echoes"): a result read by a model quotes at most about
 * ECHO_CHARS characters of any string the call gave. A ref's `str`, a path or an inline document of
 * a megabyte must not come back whole, in the text or in the structured content, so a hostile or
 * careless call cannot flood the model's context. Strings the tools produce (document lines, evidence
 * passages) are bounded where they are made; this pass catches what is echoed from the input.
 */

import { visible } from "../core/visible";

export const ECHO_CHARS = 200;

/** The call's strings longer than ECHO_CHARS, longest first (so an echo is cut whole, not in parts). */
export function longInputs(args: unknown): string[] {
    const found = new Set<string>();
    const visit = (value: unknown, depth: number): void => {
        if (typeof value === "string") {
            if (value.length > ECHO_CHARS) found.add(value);
        } else if (depth < 64 && typeof value === "object" && value !== null) {
            for (const item of Object.values(value)) visit(item, depth + 1);
        }
    };
    visit(args, 0);
    return [...found].sort((a, b) => b.length - a.length);
}

/** `text` cut to ECHO_CHARS, saying how much was left out. */
export function cutEcho(text: string): string {
    if (text.length <= ECHO_CHARS) return text;
    let end = ECHO_CHARS;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--; // never split a surrogate pair
    return `${text.slice(0, end)}… (${(text.length - end).toLocaleString("en-US")} more characters)`;
}

/**
 * The forms an input takes inside a result: as given, inside JSON text, as `visible` writes it for
 * a message (control characters escaped), and the two combined; a path also as normalised.
 */
function echoForms(input: string): string[] {
    const json = (text: string) => JSON.stringify(text).slice(1, -1);
    // A path is echoed as it is normalised (`\\` read as `/`).
    const bases = input.includes("\\") ? [input, input.replace(/\\/g, "/")] : [input];
    const forms = bases.flatMap((base) => [base, json(base), visible(base), json(visible(base)), visible(json(base))]);
    return [...new Set(forms)];
}

/** One string of a result with every long input it holds, in any of its forms, or that holds it, cut. */
export function boundString(text: string, inputs: readonly string[]): string {
    if (text.length <= ECHO_CHARS || inputs.length === 0) return text;
    let bounded = text;
    for (const input of inputs) {
        if (bounded.length <= ECHO_CHARS) break;
        if (input.includes(bounded)) return cutEcho(bounded); // a piece of the input (resolved inline text)
        for (const form of echoForms(input)) {
            if (bounded.includes(form)) bounded = bounded.split(form).join(cutEcho(form));
            else bounded = cutPrefixEchoes(bounded, form);
        }
    }
    return bounded;
}

/** Long stretches of `text` that repeat the start of `form` (a folder of a path, a quote cut at a limit), cut. */
function cutPrefixEchoes(text: string, form: string): string {
    const probe = form.slice(0, ECHO_CHARS / 2);
    let at = text.indexOf(probe);
    if (at < 0) return text;
    let out = "";
    let from = 0;
    while (at >= 0) {
        let length = probe.length;
        while (at + length < text.length && length < form.length && text[at + length] === form[length]) length++;
        if (length > ECHO_CHARS) {
            out += text.slice(from, at) + cutEcho(text.slice(at, at + length));
            from = at + length;
        }
        at = text.indexOf(probe, at + length);
    }
    return out + text.slice(from);
}

/** Every string in `value` (objects and arrays walked) bounded against the call's long inputs. */
export function boundEchoes<T>(value: T, inputs: readonly string[]): T {
    if (inputs.length === 0) return value;
    const walk = (item: unknown): unknown => {
        if (typeof item === "string") return boundString(item, inputs);
        if (Array.isArray(item)) return item.map(walk);
        if (typeof item === "object" && item !== null) {
            const out: Record<string, unknown> = {};
            for (const [key, field] of Object.entries(item)) out[key] = walk(field);
            return out;
        }
        return item;
    };
    return walk(value) as T;
}
