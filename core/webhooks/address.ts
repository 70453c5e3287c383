// Where a webhook may go (docs/product/delivery.md#webhooks): https on a public address, unless the shop
// itself runs on a loopback address (a developer's machine, a test rig), where anything goes. The
// address is checked when the endpoint is registered and again on every connection — the name is
// resolved by our own lookup, which refuses private, loopback, link-local and other special
// addresses — so a name that later points inside the network (DNS rebinding) reaches nothing.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Addresses no webhook may reach from a public shop (IANA special-purpose registries). Two lists:
 * node's BlockList also matches IPv4 addresses against IPv4-mapped IPv6 subnets.
 */
const SPECIAL = new BlockList();
const SPECIAL6 = new BlockList();
const MAPPED = new BlockList();
MAPPED.addSubnet("::ffff:0:0", 96, "ipv6");
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  SPECIAL.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  SPECIAL6.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address is an ordinary public one. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !SPECIAL.check(address, "ipv4");
  if (family !== 6) return false;
  // IPv4-mapped (::ffff:a.b.c.d, or its hex form): judged as the IPv4 address.
  if (MAPPED.check(address, "ipv6")) {
    const groups = new URL(`http://[${address}]`).hostname
      .slice(1, -1)
      .split(":")
      .slice(-2)
      .map((g) => parseInt(g, 16));
    return isPublicAddress([groups[0]! >> 8, groups[0]! & 255, groups[1]! >> 8, groups[1]! & 255].join("."));
  }
  return !SPECIAL6.check(address, "ipv6");
}

export class AddressRefused extends Error {}

/**
 * A `lookup` for node's http(s) requests that answers only public addresses: every address a name
 * resolves to must be public, or the connection fails with AddressRefused.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 4);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (addresses.length === 0 || refused) {
      return callback(new AddressRefused(`${hostname} resolves to ${refused?.address ?? "nothing"}, not a public address`), "", 4);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * Why an endpoint URL is refused, or null when it is fine: https with a public address (a literal
 * one, or a name whose every address is public), unless `anyAddress` (a loopback shop).
 */
export async function endpointUrlProblem(raw: string, anyAddress: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.username || url.password) return "credentials in the URL";
  if (anyAddress) return url.protocol === "https:" || url.protocol === "http:" ? null : "not http(s)";
  if (url.protocol !== "https:") return "not https";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host)) return isPublicAddress(host) ? null : "not a public address";
  return new Promise((resolve) => {
    publicOnlyLookup(host, { all: true }, (error) => resolve(error ? (error instanceof AddressRefused ? "not a public address" : "unknown host") : null));
  });
}
