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
        return { ok: true, text: decoder.decode(bytes) };
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
