/**
 * Where a webhook may be sent. A subscription's URL is the lender's; the server only calls
 * public addresses with it in production: never loopback, link-local (the cloud's metadata
 * service), private, shared (CGNAT), unspecified, multicast or reserved ranges, in IPv4 or IPv6
 * (an IPv4 address mapped or translated into IPv6 is judged as the IPv4 address it carries).
 *
 * The check resolves the host with the system resolver (every address) and the request then
 * connects to one of the checked addresses (see `pinnedLookup`), so a name that resolves to
 * something else between the check and the connection (DNS rebinding) cannot reach a private one.
 */
import dns from 'node:dns';
import net from 'node:net';

/** IPv4 ranges never called: [first address, prefix length, what it is]. */
const V4_BLOCKED: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'sin especificar'],
  ['10.0.0.0', 8, 'privada'],
  ['100.64.0.0', 10, 'compartida (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'privada'],
  ['192.0.0.0', 24, 'reservada'],
  ['192.0.2.0', 24, 'documentación'],
  ['192.168.0.0', 16, 'privada'],
  ['198.18.0.0', 15, 'pruebas de red'],
  ['198.51.100.0', 24, 'documentación'],
  ['203.0.113.0', 24, 'documentación'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reservada'],
];

/** IPv6 ranges never called (the IPv4-carrying ones are unwrapped first). */
const V6_BLOCKED: readonly [string, number, string][] = [
  ['::', 128, 'sin especificar'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'descarte'],
  ['2001:db8::', 32, 'documentación'],
  ['fc00::', 7, 'privada (ULA)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

/** The 32 bits of a dotted IPv4 address. */
function v4Bits(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

/** The 8 groups of 16 bits of an IPv6 address (with `::` expanded and a dotted IPv4 tail split). */
export function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const bits = v4Bits(tail[1]!);
    text = `${text.slice(0, -tail[1]!.length)}${Math.floor(bits / 65536).toString(16)}:${(bits % 65536).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const middle = rest === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => parseInt(g, 16));
}

function inV4(bits: number, base: string, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(bits / size) === Math.floor(v4Bits(base) / size);
}

function inV6(groups: number[], base: string, prefix: number): boolean {
  const b = v6Groups(base);
  for (let i = 0; i < 8 && prefix > 0; i++, prefix -= 16) {
    const keep = Math.min(16, prefix);
    const shift = 16 - keep;
    if (groups[i]! >> shift !== b[i]! >> shift) return false;
  }
  return true;
}

/** The IPv4 address an IPv6 one carries: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d). */
function embeddedV4(g: number[]): string | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const mapped = zeros(0, 5) && (g[5] === 0xffff || g[5] === 0) && !(g[5] === 0 && zeros(6, 7) && g[7]! <= 1);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !nat64) return undefined;
  return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
}

/**
 * Why an IP address may not be called ('loopback', 'privada', …), or null when it is public.
 * Anything that is not an IP address is refused too.
 */
export function blockedReason(ip: string): string | null {
  const family = net.isIP(ip.replace(/%.*$/, ''));
  if (family === 4) {
    const bits = v4Bits(ip);
    if (bits === 0xffffffff) return 'difusión';
    return V4_BLOCKED.find(([base, prefix]) => inV4(bits, base, prefix))?.[2] ?? null;
  }
  if (family === 6) {
    const g = v6Groups(ip);
    const v4 = embeddedV4(g);
    if (v4 !== undefined) return blockedReason(v4);
    return V6_BLOCKED.find(([base, prefix]) => inV6(g, base, prefix))?.[2] ?? null;
  }
  return 'no es una dirección IP';
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Why a target was refused (never sent to), with a short Spanish text for the delivery log. */
export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** A URL's host without the brackets of an IPv6 literal. */
export const urlHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type Lookup = (host: string) => Promise<ResolvedAddress[]>;

/** Every address of a name, as the system resolves it (an IP literal is its own address). */
export const systemLookup: Lookup = async (host) => {
  const family = net.isIP(host);
  if (family) return [{ address: host, family: family as 4 | 6 }];
  const all = await dns.promises.lookup(host, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * The addresses a request to `host` may connect to: all of them when private targets are
 * allowed; otherwise all of them only if every one is public (one private address refuses the
 * name: a resolver may hand out either). Throws TargetRefusedError (or the resolver's error).
 */
export async function checkedAddresses(host: string, allowPrivate: boolean, lookup: Lookup = systemLookup): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new TargetRefusedError(`No se pudo resolver ${host}${code ? ` (${code})` : ''}`);
  }
  if (addresses.length === 0) throw new TargetRefusedError(`No se pudo resolver ${host}`);
  if (allowPrivate) return addresses;
  for (const a of addresses) {
    const reason = blockedReason(a.address);
    if (reason) throw new TargetRefusedError(`Destino no permitido: ${a.address} (${reason})`);
  }
  return addresses;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that answers only the addresses already checked, so the
 * connection goes to one of them whatever the resolver says by then.
 */
export function pinnedLookup(addresses: ResolvedAddress[]) {
  return (_host: string, options: dns.LookupOptions | number | LookupCallback, cb?: LookupCallback): void => {
    const callback = (typeof options === 'function' ? options : cb)!;
    const opts = typeof options === 'object' ? options : {};
    const wanted = opts.family === 4 || opts.family === 6 ? addresses.filter((a) => a.family === opts.family) : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (opts.all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}
