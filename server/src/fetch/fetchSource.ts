/**
 * Fetch one cited page as visible text, with every guard of docs/quotes.md ("Fetching guards"):
 * http/https on default ports, no credentials, at most 5 redirects each checked again, never https
 * to http, 20 s and 2 MiB per source. Every address DNS returns is checked against the address
 * policy, and the socket connects to the address that was checked (a custom `lookup`), so a second
 * DNS answer cannot re-point the request (DNS rebinding). Failures carry TraceCite's codes.
 *
 * The policy, resolver, ports and transport are parameters for tests only: callers in the CLI and
 * the language server pass none of them, so users always get the strict policy and the real DNS.
 */
import type * as http from "node:http";
import type * as https from "node:https";
import type * as net from "node:net";
import { type AddressPolicy, strictAddressPolicy } from "./addressPolicy";
import { decodeBody, mediaType } from "./decodeBody";
import { bareHost, checkSourceUrl } from "./sourceUrl";

/**
 * The visible text of an HTML page. parse5 is most of a quote command's code and most pages fetched
 * are not HTML: required (never imported) with the first page, so the CLI's build makes
 * ./visibleText.ts a bundle of its own (docs/architecture.md, "CLI bundles").
 */
function htmlVisibleText(html: string): string {
    return (require("./visibleText") as typeof import("./visibleText")).visibleText(html);
}

/** node:net's isIP, loaded when a URL is first checked (a trace checked offline checks none). */
function isIP(host: string): number {
    return (require("node:net") as typeof import("node:net")).isIP(host);
}

export const FETCH_TIMEOUT_MS = 20_000;
export const FETCH_MAX_BYTES = 2 * 1024 * 1024;
export const FETCH_MAX_REDIRECTS = 5;

export interface ResolvedAddress {
    address: string;
    family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
    // node:dns, node:http and node:https load on the first request: most runs fetch nothing (a URL
    // refused by its address, a trace checked offline), and https alone costs a tenth of a bare
    // `node -e 0` start-up (docs/architecture.md, "CLI bundles").
    const dns = require("node:dns") as typeof import("node:dns");
    const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
    return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

type RequestFunction = (
    options: https.RequestOptions,
    callback: (res: http.IncomingMessage) => void,
) => http.ClientRequest;

export interface FetchOptions {
    policy?: AddressPolicy;
    resolver?: Resolver;
    timeoutMs?: number;
    maxBytes?: number;
    /** Cancels the fetch (the editor's progress notification). */
    signal?: AbortSignal;
    /** Test seam: the port a socket opens for each scheme (URLs themselves must still use default ports). */
    ports?: { http?: number; https?: number };
    /** Test seam: extra trusted certificate authority for https. */
    ca?: string | Buffer;
    /** Test seam: how requests are made (counting them proves refused addresses get none). */
    transport?: { http?: RequestFunction; https?: RequestFunction };
}

export type FetchResult =
    | { ok: true; text: string; url: string; mediaType: string }
    | { ok: false; code: string; message: string; url: string };

class FetchFailure extends Error {
    constructor(
        readonly code: string,
        message: string,
    ) {
        super(message);
    }
}

export async function fetchSourceText(rawUrl: string, options: FetchOptions = {}): Promise<FetchResult> {
    const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
    const controller = new AbortController();
    const timer = setTimeout(
        () => controller.abort(new FetchFailure("REQUEST_TIMEOUT", `no complete answer within ${timeoutMs} ms`)),
        timeoutMs,
    );
    const onCancel = () => controller.abort(new FetchFailure("FETCH_CANCELLED", "the fetch was cancelled"));
    if (options.signal?.aborted) onCancel();
    options.signal?.addEventListener("abort", onCancel, { once: true });
    let current = rawUrl;
    try {
        const first = checkSourceUrl(rawUrl);
        if (!first.ok) throw new FetchFailure("INVALID_OR_BLOCKED_URL", first.message);
        let url = first.url;
        current = url.href;
        for (let redirects = 0; ; redirects++) {
            const address = await checkedAddress(url, options, controller.signal);
            const hop = await requestOnce(url, address, options, controller.signal);
            if (hop.kind === "page") return { ok: true, text: hop.text, url: url.href, mediaType: hop.mediaType };
            if (redirects >= FETCH_MAX_REDIRECTS)
                throw new FetchFailure("TOO_MANY_REDIRECTS", `more than ${FETCH_MAX_REDIRECTS} redirects`);
            let next: URL;
            try {
                next = new URL(hop.location, url);
            } catch {
                throw new FetchFailure("INVALID_REDIRECT_TARGET", "the redirect target is not a valid URL");
            }
            const verdict = checkSourceUrl(next.href);
            if (!verdict.ok) throw new FetchFailure("INVALID_REDIRECT_TARGET", `redirect refused: ${verdict.message}`);
            if (url.protocol === "https:" && verdict.url.protocol !== "https:")
                throw new FetchFailure("HTTPS_DOWNGRADE_REDIRECT", "an https page redirected to http");
            url = verdict.url;
            current = url.href;
        }
    } catch (error) {
        const failure =
            error instanceof FetchFailure
                ? error
                : controller.signal.reason instanceof FetchFailure
                  ? controller.signal.reason
                  : new FetchFailure("HTTP_REQUEST_FAILED", error instanceof Error ? error.message : String(error));
        return { ok: false, code: failure.code, message: failure.message, url: current };
    } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onCancel);
    }
}

/** Resolve the host and check every address; the one to connect to, or a URL_BLOCKED/HOST_UNRESOLVED failure. */
async function checkedAddress(url: URL, options: FetchOptions, signal: AbortSignal): Promise<ResolvedAddress> {
    const policy = options.policy ?? strictAddressPolicy;
    const host = bareHost(url);
    const literal = isIP(host);
    let addresses: ResolvedAddress[];
    if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
    else {
        try {
            addresses = await abortable((options.resolver ?? systemResolver)(host), signal);
        } catch (error) {
            if (error instanceof FetchFailure) throw error;
            throw new FetchFailure("HOST_UNRESOLVED", `${host} does not resolve`);
        }
    }
    if (addresses.length === 0) throw new FetchFailure("HOST_UNRESOLVED", `${host} does not resolve`);
    for (const candidate of addresses) {
        const verdict = policy(candidate.address);
        if (!verdict.allowed) throw new FetchFailure("URL_BLOCKED", `${host} refused: ${verdict.reason}`);
    }
    return addresses[0];
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
        promise.then(
            (value) => {
                signal.removeEventListener("abort", onAbort);
                resolve(value);
            },
            (error) => {
                signal.removeEventListener("abort", onAbort);
                reject(error);
            },
        );
    });
}

type Hop = { kind: "page"; text: string; mediaType: string } | { kind: "redirect"; location: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.1";

function requestOnce(url: URL, address: ResolvedAddress, options: FetchOptions, signal: AbortSignal): Promise<Hop> {
    const secure = url.protocol === "https:";
    const request =
        (secure ? options.transport?.https : options.transport?.http) ??
        (secure
            ? (require("node:https") as typeof import("node:https")).request
            : (require("node:http") as typeof import("node:http")).request);
    const port = (secure ? options.ports?.https : options.ports?.http) ?? (secure ? 443 : 80);
    const host = bareHost(url);
    const maxBytes = options.maxBytes ?? FETCH_MAX_BYTES;
    return new Promise<Hop>((resolve, reject) => {
        if (signal.aborted) {
            reject(signal.reason);
            return;
        }
        const requestOptions: https.RequestOptions = {
            protocol: url.protocol,
            host,
            port,
            path: `${url.pathname}${url.search}`,
            method: "GET",
            agent: false,
            headers: { Host: url.host, Accept: ACCEPT, "Accept-Encoding": "identity", "User-Agent": "sourcecheck" },
            // The socket goes to the address that was checked, whatever DNS would answer now.
            lookup: ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
                if (lookupOptions?.all) callback(null, [{ address: address.address, family: address.family }]);
                else callback(null, address.address, address.family);
            }) as unknown as net.LookupFunction,
        };
        if (secure) {
            if (isIP(host) === 0) requestOptions.servername = host;
            if (options.ca) requestOptions.ca = options.ca;
        }
        const req = request(requestOptions, (res) => {
            const status = res.statusCode ?? 0;
            if (REDIRECTS.has(status)) {
                res.resume();
                const location = res.headers.location;
                if (!location) reject(new FetchFailure("REDIRECT_WITHOUT_LOCATION", `HTTP ${status} without Location`));
                else resolve({ kind: "redirect", location });
                return;
            }
            if (status < 200 || status >= 300) {
                res.resume();
                reject(new FetchFailure(`HTTP_STATUS_${status}`, `the server answered HTTP ${status}`));
                return;
            }
            const contentType = res.headers["content-type"] ?? "";
            const type = mediaType(contentType);
            const html = type === "" || type === "text/html" || type === "application/xhtml+xml";
            if (!html && !type.startsWith("text/") && type !== "application/json") {
                reject(new FetchFailure("UNSUPPORTED_CONTENT_TYPE", `the page is ${type}, not text`));
                res.destroy();
                return;
            }
            // Identity was asked for; a compressed body would be decoded as garbage, so it is refused.
            const encoding = (res.headers["content-encoding"] ?? "identity").trim().toLowerCase();
            if (encoding !== "identity" && encoding !== "") {
                reject(new FetchFailure("UNSUPPORTED_CONTENT_ENCODING", `the page is ${encoding}-encoded`));
                res.destroy();
                return;
            }
            const declared = Number(res.headers["content-length"] ?? "0");
            if (declared > maxBytes) {
                reject(new FetchFailure("SOURCE_TOO_LARGE", `the page is over ${maxBytes} bytes`));
                res.destroy();
                return;
            }
            const chunks: Buffer[] = [];
            let size = 0;
            res.on("data", (chunk: Buffer) => {
                size += chunk.length;
                if (size > maxBytes) {
                    // Settled first: destroying the stream emits errors that must not win.
                    reject(new FetchFailure("SOURCE_TOO_LARGE", `the page is over ${maxBytes} bytes`));
                    res.destroy();
                    req.destroy();
                    return;
                }
                chunks.push(chunk);
            });
            res.on("error", () => reject(new FetchFailure("HTTP_BODY_READ_FAILED", "the page could not be read")));
            res.on("aborted", () => reject(new FetchFailure("HTTP_BODY_READ_FAILED", "the page was cut off")));
            res.on("end", () => {
                if (size > maxBytes) return;
                const decoded = decodeBody(Buffer.concat(chunks), contentType, html);
                if (!decoded.ok) {
                    reject(new FetchFailure(decoded.code, decoded.message));
                    return;
                }
                let text = decoded.text;
                if (html) {
                    try {
                        text = htmlVisibleText(text);
                    } catch {
                        reject(new FetchFailure("HTML_PARSE_FAILED", "the page could not be parsed as HTML"));
                        return;
                    }
                }
                resolve({ kind: "page", text, mediaType: type });
            });
        });
        const onAbort = () => {
            req.destroy();
            reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        req.on("close", () => signal.removeEventListener("abort", onAbort));
        req.on("error", (error) =>
            reject(
                signal.aborted
                    ? signal.reason
                    : new FetchFailure("HTTP_REQUEST_FAILED", `request failed: ${error.message}`),
            ),
        );
        req.end();
    });
}
