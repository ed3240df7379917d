/**
 * Which URLs may be fetched at all (docs/quotes.md, "Fetching guards"): http or https, on the
 * scheme's default port, without credentials. The WHATWG parser canonicalises the host (numeric
 * IPv4 forms become dotted quads, IDNs become punycode), so the checks below see what a socket would.
 */
export type UrlVerdict = { ok: true; url: URL } | { ok: false; message: string };

export function checkSourceUrl(raw: string): UrlVerdict {
    let url: URL;
    try {
        url = new URL(raw.trim());
    } catch {
        return { ok: false, message: "not a valid absolute URL" };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
        return { ok: false, message: `the scheme ${url.protocol} is not http or https` };
    if (url.username !== "" || url.password !== "") return { ok: false, message: "URLs with credentials are refused" };
    // The parser drops a default port, so any port left is a non-default one.
    if (url.port !== "") return { ok: false, message: `port ${url.port} is not the default port of ${url.protocol}` };
    if (url.hostname === "") return { ok: false, message: "the URL has no host" };
    url.hash = "";
    return { ok: true, url };
}

/** The host as a socket wants it: IPv6 literals without their brackets. */
export function bareHost(url: URL): string {
    const host = url.hostname;
    return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
