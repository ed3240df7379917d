/**
 * Bytes of a response to text, honouring the charset: a BOM first, then the Content-Type `charset`
 * parameter, then (HTML only) a `<meta charset>` in the first 1024 bytes, else UTF-8. Decoding is
 * strict (TextDecoder with `fatal`): bytes invalid in the declared charset are an error, never
 * silently replaced.
 */
import { TextDecoder } from "node:util";

export type Decoded = { ok: true; text: string } | { ok: false; code: string; message: string };

export function decodeBody(bytes: Uint8Array, contentType: string, html: boolean): Decoded {
    const label = bomCharset(bytes) ?? headerCharset(contentType) ?? (html ? metaCharset(bytes) : undefined) ?? "utf-8";
    let decoder: TextDecoder;
    try {
        decoder = new TextDecoder(label, { fatal: true });
    } catch {
        return { ok: false, code: "UNSUPPORTED_CHARSET", message: `the charset ${JSON.stringify(label)} is unknown` };
    }
    try {
        const text = decoder.decode(bytes);
        return { ok: true, text: decoder.encoding === "windows-1252" ? windows1252C1(text) : text };
    } catch {
        return decoder.encoding === "utf-8"
            ? { ok: false, code: "SOURCE_NOT_UTF8", message: "the page is not valid UTF-8" }
            : { ok: false, code: "SOURCE_DECODE_FAILED", message: `the page is not valid ${decoder.encoding}` };
    }
}

function bomCharset(bytes: Uint8Array): string | undefined {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
    return undefined;
}

export function headerCharset(contentType: string): string | undefined {
    const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
    return match ? match[1].toLowerCase() : undefined;
}

function metaCharset(bytes: Uint8Array): string | undefined {
    const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
    const match =
        /<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_:.-]+)/i.exec(head) ??
        /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([a-zA-Z0-9_:.-]+)/i.exec(head);
    return match ? match[1].toLowerCase() : undefined;
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(contentType: string): string {
    return contentType.split(";")[0].trim().toLowerCase();
}

/**
 * WHATWG windows-1252 (also what `iso-8859-1` and `latin1` labels mean on the web) maps bytes
 * 0x80-0x9F to typographic characters; Node 20's TextDecoder decodes them as C1 controls instead.
 * The 32 entries of the WHATWG index put that right (0x81, 0x8D, 0x8F, 0x90, 0x9D map to themselves).
 */
const WINDOWS_1252_C1 =
    "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
    "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function windows1252C1(text: string): string {
    return text.replace(/[\u0080-\u009f]/g, (ch) => WINDOWS_1252_C1[ch.charCodeAt(0) - 0x80]);
}
