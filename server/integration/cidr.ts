import { BlockList, isIP } from 'node:net';

/** An address as the allowlist compares it: IPv4-mapped IPv6 (`::ffff:10.0.0.1`) as IPv4. */
export function plainAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

/** Adds an address or CIDR block to `list`; false when it is neither. */
function addEntry(list: BlockList, entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (bits === undefined) {
    list.addAddress(address, type);
    return true;
  }
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128)) return false;
  list.addSubnet(address, Number(bits), type);
  return true;
}

/** The first entry that is not an IP address or CIDR block, or undefined when all are. */
export function invalidCidr(entries: readonly string[]): string | undefined {
  const list = new BlockList();
  return entries.find((e) => !addEntry(list, e));
}

/** Whether `ip` is inside one of `entries` (an empty list allows every address). */
export function ipAllowed(entries: readonly string[], ip: string | undefined): boolean {
  if (entries.length === 0) return true;
  if (!ip) return false;
  const address = plainAddress(ip);
  const family = isIP(address);
  if (family === 0) return false;
  const list = new BlockList();
  for (const e of entries) addEntry(list, e);
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
