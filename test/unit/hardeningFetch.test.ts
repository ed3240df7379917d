/**
 * Hardening: the fetch guard admits only global unicast addresses (docs/security.md, "Fetches").
 * Every spelling goes through an injected transport that records attempts: no connection is ever
 * opened here, and none may be attempted for a refused address.
 */
import * as assert from "node:assert/strict";
import { strictAddressPolicy } from "../../server/src/fetch/addressPolicy";
import { type FetchOptions, fetchSourceText, type Resolver } from "../../server/src/fetch/fetchSource";

function recordingTransport(): FetchOptions["transport"] & { attempts: string[] } {
    const attempts: string[] = [];
    const refuse = (url: unknown) => {
        attempts.push(String(url));
        throw new Error("no connection in this test");
    };
    return { attempts, http: refuse as never, https: refuse as never };
}

function resolver(table: Record<string, string[]>): Resolver {
    return async (host: string) => {
        const answers = table[host];
        if (!answers) throw new Error(`ENOTFOUND ${host}`);
        return answers.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
    };
}

/** Written in the URL: IPv4-compatible, NAT64, 6to4, Teredo, ULA, documentation, unallocated... */
const REFUSED_URLS = [
    "http://[::127.0.0.1]/",
    "http://[::7f00:1]/",
    "http://[0:0:0:0:0:0:127.0.0.1]/",
    "http://[::a00:1]/",
    "http://[::169.254.169.254]/",
    "http://[::]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:0:7f00:1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[64:ff9b:1::a00:1]/",
    "http://[2002:7f00:1::]/",
    "http://[2001::1]/",
    "http://[2001:db8::1]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://[fec0::1]/",
    "http://[ff02::1]/",
    "http://[100::1]/",
    "http://[4000::1]/",
    "http://[e000::1]/",
    "http://0.0.0.0/",
    "http://0/",
    "http://127.1/",
    "http://192.0.2.1/",
    "http://198.18.0.1/",
    "http://224.0.0.1/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
];

describe("hardening: the fetch guard allows only public unicast", () => {
    it("refuses every non-global spelling written in the URL, attempting no connection", async () => {
        const transport = recordingTransport();
        for (const url of REFUSED_URLS) {
            const result = await fetchSourceText(url, { transport });
            assert.equal(result.ok, false, url);
            if (!result.ok) assert.equal(result.code, "URL_BLOCKED", `${url}: ${result.message}`);
        }
        assert.deepEqual(transport.attempts, [], "no connection attempted");
    });

    it("refuses the same addresses when DNS returns them", async () => {
        const transport = recordingTransport();
        const table: Record<string, string[]> = {
            "compat.test": ["::7f00:1"],
            "nat64.test": ["64:ff9b::a00:1"],
            "unallocated.test": ["4000::1"],
            "mixed.test": ["2606:4700::1111", "::127.0.0.1"],
        };
        for (const host of Object.keys(table)) {
            const result = await fetchSourceText(`https://${host}/`, { transport, resolver: resolver(table) });
            assert.equal(result.ok ? "" : result.code, "URL_BLOCKED", host);
        }
        assert.deepEqual(transport.attempts, []);
    });

    it("the policy is an allow-list: global unicast passes, everything else is named and refused", () => {
        for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "2a00:1450:4001::1"]) {
            assert.deepEqual(strictAddressPolicy(address), { allowed: true }, address);
        }
        const compat = strictAddressPolicy("::7f00:1");
        assert.equal(compat.allowed, false);
        if (!compat.allowed) assert.match(compat.reason, /not a global unicast address|ipv4|loopback/i);
        for (const address of ["::127.0.0.1", "4000::1", "::1.2.3.4", "2001:db8::1", "100::"]) {
            assert.equal(strictAddressPolicy(address).allowed, false, address);
        }
    });
});
