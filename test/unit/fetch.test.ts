/**
 * The guarded fetcher. Real connections go only to servers on 127.0.0.1, reached through a test
 * policy that admits exactly that address and a resolver that maps test names to it. Refusals of
 * every other range are shown on the policy function, and through stubbed resolvers with a transport
 * that fails the test if it is ever asked to open a request.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { type AddressPolicy, strictAddressPolicy } from "../../server/src/fetch/addressPolicy";
import { type FetchOptions, fetchSourceText, type Resolver } from "../../server/src/fetch/fetchSource";
import { checkSourceUrl } from "../../server/src/fetch/sourceUrl";

const repo = path.resolve(__dirname, "../../..");
const tls = path.join(repo, "test/fixtures/tls");

/** Only 127.0.0.1 is admitted beyond the strict policy: the address of the test servers. */
const testPolicy: AddressPolicy = (address) =>
    address === "127.0.0.1" ? { allowed: true } : strictAddressPolicy(address);

function resolver(table: Record<string, string[]>): Resolver & { calls: string[] } {
    const calls: string[] = [];
    const resolve = async (host: string) => {
        calls.push(host);
        const answers = table[host];
        if (!answers) throw new Error(`ENOTFOUND ${host}`);
        return answers.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
    };
    return Object.assign(resolve, { calls });
}

/** A transport that must never be used: the guard has to refuse before any socket exists. */
const noTransport: FetchOptions["transport"] = {
    http: () => assert.fail("a request was opened to a refused address"),
    https: () => assert.fail("a request was opened to a refused address"),
};

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface TestServer {
    port: number;
    requests: { host?: string; url?: string }[];
    close(): Promise<void>;
}

async function serve(routes: Record<string, Handler>, secure = false): Promise<TestServer> {
    const requests: TestServer["requests"] = [];
    const handler: Handler = (req, res) => {
        requests.push({ host: req.headers.host, url: req.url });
        const route = routes[req.url ?? ""];
        if (route) route(req, res);
        else {
            res.writeHead(404, { "Content-Type": "text/plain" });
            res.end("not here");
        }
    };
    const server = secure
        ? https.createServer(
              {
                  key: fs.readFileSync(path.join(tls, "site.test.key")),
                  cert: fs.readFileSync(path.join(tls, "site.test.crt")),
              },
              handler,
          )
        : http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
        port: (server.address() as AddressInfo).port,
        requests,
        close: () =>
            new Promise<void>((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    };
}

const text = (body: string | Buffer, type = "text/plain; charset=utf-8"): Handler => {
    return (_req, res) => {
        res.writeHead(200, { "Content-Type": type });
        res.end(body);
    };
};
const redirect = (location: string): Handler => {
    return (_req, res) => {
        res.writeHead(302, { Location: location });
        res.end();
    };
};

describe("fetch: the address policy", () => {
    const refused = [
        ["127.0.0.1", "loopback"],
        ["127.255.0.9", "loopback"],
        ["::1", "loopback"],
        ["10.1.2.3", "private"],
        ["172.16.0.1", "private"],
        ["192.168.1.1", "private"],
        ["169.254.169.254", "linkLocal"],
        ["fe80::1", "linkLocal"],
        ["fc00::1", "uniqueLocal"],
        ["100.64.0.1", "carrierGradeNat"],
        ["224.0.0.1", "multicast"],
        ["ff02::1", "multicast"],
        ["0.0.0.0", "unspecified"],
        ["::", "unspecified"],
        ["255.255.255.255", "broadcast"],
        ["192.0.2.1", "reserved"],
        ["198.18.0.1", "reserved"],
        ["240.0.0.1", "reserved"],
        ["2001:db8::1", "reserved"],
        ["::ffff:127.0.0.1", "loopback"],
        ["::ffff:7f00:1", "loopback"],
        ["::ffff:10.0.0.1", "private"],
        ["64:ff9b::7f00:1", "rfc6052"],
        ["2002:7f00:1::", "6to4"],
        ["2001::1", "teredo"],
        ["2130706433", "loopback"],
        ["0177.0.0.1", "loopback"],
        ["0x7f.0.0.1", "loopback"],
        ["0x7f000001", "loopback"],
        ["127.1", "loopback"],
        ["017700000001", "loopback"],
    ];
    for (const [address, range] of refused) {
        it(`refuses ${address} (${range})`, () => {
            const verdict = strictAddressPolicy(address);
            assert.equal(verdict.allowed, false);
            if (!verdict.allowed) assert.ok(verdict.reason.includes(range), verdict.reason);
        });
    }

    it("admits public unicast addresses, and refuses what is not an address", () => {
        for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:93.184.216.34"]) {
            assert.deepEqual(strictAddressPolicy(address), { allowed: true }, address);
        }
        assert.equal(strictAddressPolicy("example.org").allowed, false);
        assert.equal(strictAddressPolicy("").allowed, false);
    });
});

describe("fetch: which URLs may be fetched", () => {
    it("refuses other schemes, credentials and non-default ports; default ports written out are fine", () => {
        assert.equal(checkSourceUrl("ftp://example.org/").ok, false);
        assert.equal(checkSourceUrl("file:///etc/passwd").ok, false);
        assert.equal(checkSourceUrl("https://user:secret@example.org/").ok, false);
        assert.equal(checkSourceUrl("https://user@example.org/").ok, false);
        assert.equal(checkSourceUrl("http://example.org:8080/").ok, false);
        assert.equal(checkSourceUrl("https://example.org:80/").ok, false);
        assert.equal(checkSourceUrl("not a url").ok, false);
        assert.equal(checkSourceUrl("http://example.org:80/a").ok, true);
        assert.equal(checkSourceUrl("https://example.org:443/a#frag").ok, true);
    });

    it("sees numeric host forms as the address they denote", () => {
        for (const raw of ["http://2130706433/", "http://0x7f.1/", "http://0177.0.0.1/"]) {
            const verdict = checkSourceUrl(raw);
            assert.ok(verdict.ok);
            if (verdict.ok) assert.equal(verdict.url.hostname, "127.0.0.1");
        }
    });

    it("refuses loopback, private, link-local and mapped addresses written in the URL, before any socket", async () => {
        for (const url of [
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://0177.0.0.1/",
            "http://[::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::ffff:a00:1]/",
            "http://[fe80::1]/",
            "http://10.0.0.1/",
            "http://169.254.169.254/latest/meta-data/",
            "https://100.64.1.1/",
        ]) {
            const result = await fetchSourceText(url, { transport: noTransport });
            assert.equal(result.ok, false, url);
            if (!result.ok) assert.equal(result.code, "URL_BLOCKED", `${url}: ${result.message}`);
        }
    });

    it("checks every address DNS returns: one private answer among public ones refuses the host", async () => {
        const dns = resolver({
            "mixed.test": ["93.184.216.34", "192.168.1.5"],
            "v6.test": ["2606:4700::1111", "fe80::1"],
            "mapped.test": ["::ffff:10.0.0.1"],
        });
        for (const host of ["mixed.test", "v6.test", "mapped.test"]) {
            const result = await fetchSourceText(`https://${host}/`, { resolver: dns, transport: noTransport });
            assert.equal(result.ok, false);
            if (!result.ok) assert.equal(result.code, "URL_BLOCKED", host);
        }
        const none = await fetchSourceText("https://nowhere.test/", { resolver: dns, transport: noTransport });
        assert.equal(none.ok ? "" : none.code, "HOST_UNRESOLVED");
    });

    it("refuses a malformed or non-default-port URL as INVALID_OR_BLOCKED_URL", async () => {
        const result = await fetchSourceText("http://site.test:8080/", { transport: noTransport });
        assert.equal(result.ok ? "" : result.code, "INVALID_OR_BLOCKED_URL");
    });
});

describe("fetch: a local server on 127.0.0.1", () => {
    let server: TestServer;
    let secure: TestServer;
    const dns = resolver({ "site.test": ["127.0.0.1"], "internal.test": ["10.0.0.7"] });
    let options: FetchOptions;

    before(async () => {
        const chain: Record<string, Handler> = {};
        for (let n = 1; n <= 6; n++) chain[`/r/${n}`] = redirect(`/r/${n - 1}`);
        chain["/r/0"] = text("end of the chain");
        server = await serve({
            ...chain,
            "/page": text(
                "<!doctype html><html><head><title>Title</title><style>p{color:red}</style><script>var s='script words'</script></head>" +
                    "<body><p>Visible &amp; decoded</p><div hidden>hidden words</div><p>Second<b>bold</b></p><ul><li>one</li><li>two</li></ul></body></html>",
                "text/html; charset=utf-8",
            ),
            "/latin1": text(Buffer.from("café naïve", "latin1"), "text/plain; charset=iso-8859-1"),
            "/meta": text(
                Buffer.concat([
                    Buffer.from('<html><head><meta charset="windows-1252"></head><body><p>'),
                    Buffer.from([0x93, 0x71, 0x94]),
                    Buffer.from("</p></body></html>"),
                ]),
                "text/html",
            ),
            "/sjis": text(Buffer.from([0x93, 0xfa, 0x96, 0x7b]), "text/plain; charset=Shift_JIS"),
            "/bad-utf8": text(Buffer.from([0x61, 0xc3, 0x28]), "text/plain"),
            "/image": text(Buffer.from([0x89, 0x50]), "image/png"),
            "/gzip": (_req, res) => {
                res.writeHead(200, { "Content-Type": "text/plain", "Content-Encoding": "gzip" });
                res.end(Buffer.from([0x1f, 0x8b]));
            },
            "/big": (_req, res) => {
                res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": "5000" });
                res.end("x".repeat(5000));
            },
            "/big-chunked": (_req, res) => {
                res.writeHead(200, { "Content-Type": "text/plain" });
                for (let i = 0; i < 10; i++) res.write("y".repeat(500));
                res.end();
            },
            "/slow": () => {
                // Never answers: the time cap has to end the fetch.
            },
            "/to-internal": redirect("http://internal.test/"),
            "/to-loopback-literal": redirect("http://127.0.0.2/"),
            "/to-port": redirect("http://site.test:8080/"),
        });
        secure = await serve(
            {
                "/ok": text("secure text"),
                "/downgrade": redirect("http://site.test/page"),
            },
            true,
        );
        options = {
            policy: testPolicy,
            resolver: dns,
            ports: { http: server.port, https: secure.port },
            ca: fs.readFileSync(path.join(tls, "site.test.crt")),
        };
    });
    after(async () => {
        await server.close();
        await secure.close();
    });

    it("reduces HTML to its visible text with an HTML5 parser", async () => {
        const result = await fetchSourceText("http://site.test/page", options);
        assert.ok(result.ok, result.ok ? "" : result.message);
        if (!result.ok) return;
        assert.ok(result.text.includes("Visible & decoded"));
        assert.ok(result.text.includes("Secondbold"));
        assert.match(result.text, /one\s+two/);
        for (const invisible of ["Title", "script words", "hidden words", "color:red"]) {
            assert.ok(!result.text.includes(invisible), invisible);
        }
        assert.equal(server.requests.at(-1)?.host, "site.test");
    });

    it("honours the charset of the header and of a meta tag; invalid UTF-8 is an error, not replaced", async () => {
        const latin = await fetchSourceText("http://site.test/latin1", options);
        assert.equal(latin.ok ? latin.text : latin.code, "café naïve");
        const meta = await fetchSourceText("http://site.test/meta", options);
        assert.equal(meta.ok ? meta.text.trim() : meta.code, "\u201cq\u201d");
        const sjis = await fetchSourceText("http://site.test/sjis", options);
        assert.equal(sjis.ok ? sjis.text : sjis.code, "\u65e5\u672c");
        const bad = await fetchSourceText("http://site.test/bad-utf8", options);
        assert.equal(bad.ok ? bad.text : bad.code, "SOURCE_NOT_UTF8");
    });

    it("refuses content that is not text, compressed bodies it did not ask for, and HTTP errors", async () => {
        const image = await fetchSourceText("http://site.test/image", options);
        assert.equal(image.ok ? "" : image.code, "UNSUPPORTED_CONTENT_TYPE");
        const gzip = await fetchSourceText("http://site.test/gzip", options);
        assert.equal(gzip.ok ? "" : gzip.code, "UNSUPPORTED_CONTENT_ENCODING");
        const missing = await fetchSourceText("http://site.test/nope", options);
        assert.equal(missing.ok ? "" : missing.code, "HTTP_STATUS_404");
    });

    it("caps the size of a page, declared or streamed", async () => {
        for (const route of ["/big", "/big-chunked"]) {
            const result = await fetchSourceText(`http://site.test${route}`, { ...options, maxBytes: 2048 });
            assert.equal(result.ok ? "" : result.code, "SOURCE_TOO_LARGE", route);
        }
        const within = await fetchSourceText("http://site.test/big", { ...options, maxBytes: 5000 });
        assert.ok(within.ok);
    });

    it("caps the time of a fetch", async () => {
        const result = await fetchSourceText("http://site.test/slow", { ...options, timeoutMs: 300 });
        assert.equal(result.ok ? "" : result.code, "REQUEST_TIMEOUT");
    });

    it("can be cancelled", async () => {
        const controller = new AbortController();
        const pending = fetchSourceText("http://site.test/slow", { ...options, signal: controller.signal });
        setImmediate(() => controller.abort());
        const result = await pending;
        assert.equal(result.ok ? "" : result.code, "FETCH_CANCELLED");
    });

    it("follows at most 5 redirects", async () => {
        const five = await fetchSourceText("http://site.test/r/5", options);
        assert.equal(five.ok ? five.text : five.code, "end of the chain");
        const six = await fetchSourceText("http://site.test/r/6", options);
        assert.equal(six.ok ? "" : six.code, "TOO_MANY_REDIRECTS");
    });

    it("checks each redirect target again: one to a private or loopback address gets no request", async () => {
        const before = server.requests.length;
        let opened = 0;
        const counting: FetchOptions["transport"] = {
            http: (o, cb) => {
                opened++;
                return http.request(o, cb);
            },
        };
        const internal = await fetchSourceText("http://site.test/to-internal", { ...options, transport: counting });
        assert.equal(internal.ok ? "" : internal.code, "URL_BLOCKED");
        const literal = await fetchSourceText("http://site.test/to-loopback-literal", {
            ...options,
            transport: counting,
        });
        assert.equal(literal.ok ? "" : literal.code, "URL_BLOCKED");
        const port = await fetchSourceText("http://site.test/to-port", { ...options, transport: counting });
        assert.equal(port.ok ? "" : port.code, "INVALID_REDIRECT_TARGET");
        assert.equal(opened, 3, "only the first hop of each fetch opened a request");
        assert.equal(server.requests.length - before, 3);
    });

    it("fetches https with the certificate checked against the host name", async () => {
        const result = await fetchSourceText("https://site.test/ok", options);
        assert.equal(result.ok ? result.text : result.message, "secure text");
        const untrusted = await fetchSourceText("https://site.test/ok", { ...options, ca: undefined });
        assert.equal(untrusted.ok ? "" : untrusted.code, "HTTP_REQUEST_FAILED");
    });

    it("never follows https to http: the http server receives nothing", async () => {
        const before = server.requests.length;
        const result = await fetchSourceText("https://site.test/downgrade", options);
        assert.equal(result.ok ? "" : result.code, "HTTPS_DOWNGRADE_REDIRECT");
        assert.equal(server.requests.length, before);
    });

    it("connects to the address it checked: the name is resolved once, a later answer (rebinding) never used", async () => {
        let answers = 0;
        const rebinding: Resolver = async () => {
            answers++;
            return [{ address: answers === 1 ? "127.0.0.1" : "10.0.0.1", family: 4 }];
        };
        const result = await fetchSourceText("http://rebind.test/r/0", { ...options, resolver: rebinding });
        assert.equal(result.ok ? result.text : result.code, "end of the chain");
        assert.equal(answers, 1);
        assert.equal(server.requests.at(-1)?.host, "rebind.test");
    });

    it("resolves and checks the name again on each redirect hop", async () => {
        let answers = 0;
        const rebinding: Resolver = async () => {
            answers++;
            return [{ address: answers === 1 ? "127.0.0.1" : "10.0.0.1", family: 4 }];
        };
        const result = await fetchSourceText("http://rebind.test/r/1", { ...options, resolver: rebinding });
        assert.equal(result.ok ? "" : result.code, "URL_BLOCKED");
        assert.equal(answers, 2);
    });
});
