import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** An allowlist entry: an address (a block of one) or a CIDR block, IPv4 or IPv6. */
function parseEntry(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  const [address, bits, extra] = entry.split('/');
  // net.isIP: only the usual notations (ipaddr.js alone also reads forms like `127.1`).
  if (extra !== undefined || !address || isIP(address) === 0) return undefined;
  const parsed = ipaddr.parse(address);
  if (bits === undefined) return [parsed, parsed.kind() === 'ipv4' ? 32 : 128];
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > (parsed.kind() === 'ipv4' ? 32 : 128)) return undefined;
  return [parsed, Number(bits)];
}

/** The first entry that is not an IP address or CIDR block, or undefined when all are. */
export function invalidCidr(entries: readonly string[]): string | undefined {
  return entries.find((e) => parseEntry(e) === undefined);
}

/**
 * Whether `ip` is inside one of `entries` (an empty list allows every address). An IPv4-mapped
 * IPv6 address (`::ffff:10.0.0.1`, how a dual-stack socket reports IPv4 clients) is compared as IPv4.
 */
export function ipAllowed(entries: readonly string[], ip: string | undefined): boolean {
  if (entries.length === 0) return true;
  if (!ip || isIP(ip) === 0) return false;
  const address = ipaddr.process(ip);
  return entries.some((e) => {
    const block = parseEntry(e);
    return block !== undefined && block[0].kind() === address.kind() && address.match(block as [typeof address, number]);
  });
}
