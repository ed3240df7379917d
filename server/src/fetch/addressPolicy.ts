/**
 * Which IP addresses a source may be fetched from (docs/quotes.md, "Fetching guards"). The strict
 * policy admits only globally routable unicast addresses: loopback, private, link-local, CGNAT,
 * multicast, broadcast, unspecified, documentation, benchmarking, 6to4/Teredo/NAT64 tunnels and every
 * other reserved range are refused. Ranges come from ipaddr.js, not hand-written masks; IPv4-mapped
 * IPv6 addresses are judged as the IPv4 address they carry, and any textual IPv4 form ipaddr.js reads
 * (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`) is judged by the address it denotes.
 *
 * The check is an allow-list, not a deny-list: an IPv6 address must also lie in 2000::/3, the only
 * block IANA allocates for global unicast. Anything ipaddr.js has no name for (it calls it
 * "unicast" by default) is refused unless it is there: the IPv4-compatible `::a.b.c.d` form
 * (`http://[::127.0.0.1]/`, which the URL parser writes `::7f00:1`), ::/8 and the rest.
 */
import ipaddr from "ipaddr.js";

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** Injected into the fetcher; the CLI and the editor always use strictAddressPolicy. */
export type AddressPolicy = (address: string) => AddressVerdict;

export const strictAddressPolicy: AddressPolicy = (address) => {
    const range = addressRange(address);
    if (range === undefined) return { allowed: false, reason: `${address} is not an IP address` };
    if (range.name !== "unicast") return { allowed: false, reason: `${range.canonical} is a ${range.name} address` };
    if (range.kind === "ipv6" && !GLOBAL_UNICAST_V6.some((block) => (range.parsed as ipaddr.IPv6).match(block))) {
        return { allowed: false, reason: `${range.canonical} is not a global unicast address (outside 2000::/3)` };
    }
    return { allowed: true };
};

const GLOBAL_UNICAST_V6: [ipaddr.IPv6, number][] = [ipaddr.IPv6.parseCIDR("2000::/3")];

/** The ipaddr.js range name of an address in any textual form it accepts, or undefined if not an address. */
export function addressRange(
    address: string,
): { name: string; canonical: string; kind: "ipv4" | "ipv6"; parsed: ipaddr.IPv4 | ipaddr.IPv6 } | undefined {
    const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
    if (!ipaddr.isValid(bare)) return undefined;
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
        const v6Text = hexTail(bare);
        if (ipaddr.IPv6.isValid(v6Text)) {
            // Only the IPv4-mapped form (::ffff:a.b.c.d) is judged as the IPv4 address it carries; the
            // IPv4-compatible ::a.b.c.d stays IPv6 (outside 2000::/3, so refused) whatever it carries.
            const v6 = ipaddr.IPv6.parse(v6Text);
            parsed = v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
        } else parsed = ipaddr.parse(bare);
    } catch {
        return undefined;
    }
    return { name: parsed.range(), canonical: parsed.toString(), kind: parsed.kind(), parsed };
}

/**
 * IPv6 text ending in a dotted quad, rewritten with the quad as two hex groups: ipaddr.js reads
 * `::1.2.3.4` as the mapped `::ffff:1.2.3.4`, which would judge an IPv4-compatible address by the
 * IPv4 address it carries. Written in hex, only `::ffff:…` is mapped.
 */
function hexTail(text: string): string {
    const match = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(text);
    if (!match || !ipaddr.IPv4.isValidFourPartDecimal(match[2])) return text;
    const [a, b, c, d] = ipaddr.IPv4.parse(match[2]).toByteArray();
    return `${match[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}
