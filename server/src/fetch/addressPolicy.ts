/**
 * Which IP addresses a source may be fetched from (docs/quotes.md, "Fetching guards"). The strict
 * policy admits only globally routable unicast addresses: loopback, private, link-local, CGNAT,
 * multicast, broadcast, unspecified, documentation, benchmarking, 6to4/Teredo/NAT64 tunnels and every
 * other reserved range are refused. Ranges come from ipaddr.js, not hand-written masks; IPv4-mapped
 * IPv6 addresses are judged as the IPv4 address they carry, and any textual IPv4 form ipaddr.js reads
 * (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`) is judged by the address it denotes.
 */
import ipaddr from "ipaddr.js";

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** Injected into the fetcher; the CLI and the editor always use strictAddressPolicy. */
export type AddressPolicy = (address: string) => AddressVerdict;

export const strictAddressPolicy: AddressPolicy = (address) => {
    const range = addressRange(address);
    if (range === undefined) return { allowed: false, reason: `${address} is not an IP address` };
    if (range.name !== "unicast") return { allowed: false, reason: `${range.canonical} is a ${range.name} address` };
    return { allowed: true };
};

/** The ipaddr.js range name of an address in any textual form it accepts, or undefined if not an address. */
export function addressRange(address: string): { name: string; canonical: string } | undefined {
    const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
    if (!ipaddr.isValid(bare)) return undefined;
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
        // process() turns ::ffff:a.b.c.d into the IPv4 address it carries.
        parsed = ipaddr.process(bare);
    } catch {
        return undefined;
    }
    return { name: parsed.range(), canonical: parsed.toString() };
}
