/**
 * Where a webhook may be sent. A subscription's URL is the lender's; the server only calls
 * public addresses with it (unless `WEBHOOK_ALLOW_PRIVATE_TARGETS=true` outside production): never
 * loopback, link-local (the cloud's metadata service), private, shared (CGNAT), unspecified,
 * multicast, documentation, benchmarking or any other special-purpose range of IANA's registries, in
 * IPv4 or IPv6 (an IPv4 address mapped or translated into IPv6 is judged as the IPv4 address it
 * carries; the deprecated IPv4-compatible form is refused whatever it carries).
 *
 * The check resolves the host with the system resolver (every address) and the request then
 * connects to one of the checked addresses (see `pinnedLookup`), so a name that resolves to
 * something else between the check and the connection (DNS rebinding) cannot reach a private one.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

type Range<T> = { range: [T, number]; reason: string };

/** A CIDR table, narrowest ranges first: the first one that matches names the reason. */
function table<T extends ipaddr.IPv4 | ipaddr.IPv6>(parse: (cidr: string) => [T, number], rows: [cidr: string, reason: string][]): Range<T>[] {
  return rows.map(([cidr, reason]) => ({ range: parse(cidr), reason })).sort((a, b) => b.range[1] - a.range[1]);
}

const reasonIn = <T extends ipaddr.IPv4 | ipaddr.IPv6>(addr: T, ranges: readonly Range<T>[]): string | null =>
  ranges.find((r) => addr.match(r.range))?.reason ?? null;

/**
 * IPv4 ranges a webhook may not call: IANA's IPv4 Special-Purpose Address Registry (RFC 6890 and
 * later; whole blocks, even where a few addresses are marked globally reachable), plus multicast.
 */
const IPV4_BLOCKED = table(
  (cidr) => ipaddr.IPv4.parseCIDR(cidr),
  [
    ['0.0.0.0/8', 'sin especificar'], // "this network" (RFC 791)
    ['10.0.0.0/8', 'privada'], // RFC 1918
    ['100.64.0.0/10', 'compartida (CGNAT)'], // RFC 6598
    ['127.0.0.0/8', 'loopback'],
    ['169.254.0.0/16', 'link-local'], // the cloud's metadata service lives here
    ['172.16.0.0/12', 'privada'], // RFC 1918
    ['192.0.0.0/24', 'reservada'], // IETF protocol assignments (DS-Lite, NAT64 discovery, PCP, TURN)
    ['192.0.2.0/24', 'documentación'], // TEST-NET-1
    ['192.31.196.0/24', 'reservada'], // AS112-v4
    ['192.52.193.0/24', 'reservada'], // AMT
    ['192.88.99.0/24', 'reservada'], // deprecated 6to4 relay anycast
    ['192.168.0.0/16', 'privada'], // RFC 1918
    ['192.175.48.0/24', 'reservada'], // direct delegation AS112
    ['198.18.0.0/15', 'pruebas de rendimiento'], // RFC 2544 benchmarking
    ['198.51.100.0/24', 'documentación'], // TEST-NET-2
    ['203.0.113.0/24', 'documentación'], // TEST-NET-3
    ['224.0.0.0/4', 'multicast'],
    ['240.0.0.0/4', 'reservada'], // future use
    ['255.255.255.255/32', 'difusión'],
  ],
);

/**
 * IPv6 ranges a webhook may not call: IANA's IPv6 Special-Purpose Address Registry and the other
 * non-global blocks. The IPv4-mapped (::ffff:0:0/96) and NAT64 well-known (64:ff9b::/96) prefixes
 * are not here: `blockedReason` judges the IPv4 address they carry. Whatever is outside 2000::/3,
 * the global unicast space, is refused as well.
 */
const IPV6_BLOCKED = table(
  (cidr) => ipaddr.IPv6.parseCIDR(cidr),
  [
    ['::/128', 'sin especificar'],
    ['::1/128', 'loopback'],
    ['64:ff9b:1::/48', 'reservada'], // local-use IPv4/IPv6 translation (RFC 8215)
    ['100::/64', 'descarte'], // discard-only (RFC 6666)
    ['2001::/23', 'reservada'], // IETF protocol assignments
    ['2001::/32', 'túnel Teredo'], // carries an IPv4 address the server would reach through a relay
    ['2001:2::/48', 'pruebas de rendimiento'], // benchmarking (RFC 5180)
    ['2001:10::/28', 'reservada'], // ORCHID (deprecated)
    ['2001:20::/28', 'reservada'], // ORCHIDv2
    ['2001:db8::/32', 'documentación'],
    ['2002::/16', 'túnel 6to4'], // carries an IPv4 address the server would reach through a relay
    ['2620:4f:8000::/48', 'reservada'], // direct delegation AS112
    ['3fff::/20', 'documentación'], // RFC 9637
    ['5f00::/16', 'reservada'], // SRv6 SIDs (RFC 9602)
    ['fc00::/7', 'privada (ULA)'],
    ['fe80::/10', 'link-local'],
    ['fec0::/10', 'site-local'], // deprecated
    ['ff00::/8', 'multicast'],
  ],
);

/** IPv6 prefixes whose last 32 bits are an IPv4 address the connection would reach. */
const IPV4_MAPPED = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291): `::` and `::1` are matched before. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

const carriedIPv4 = (v6: ipaddr.IPv6): ipaddr.IPv4 => new ipaddr.IPv4(v6.toByteArray().slice(12));

/**
 * Why an IP address may not be called ('loopback', 'privada', …), or null when it is public
 * unicast. An IPv6 address carrying an IPv4 one is judged as that IPv4 address when mapped
 * (::ffff:a.b.c.d) or NAT64-translated (64:ff9b::a.b.c.d). The deprecated IPv4-compatible form
 * (::a.b.c.d) is refused outright: named after what it carries when that is refused too (e.g.
 * `::a9fe:a9fe` is 'link-local'), 'compatible con IPv4 (obsoleta)' otherwise (`::808:808`): no
 * public host has such an address, and a stack that still routes it would reach the IPv4 one.
 * Tunnels (6to4, Teredo) are refused. Anything that is not an IP address is refused too.
 */
export function blockedReason(ip: string): string | null {
  const text = ip.replace(/%.*$/, '');
  const family = net.isIP(text);
  if (family === 0 || !ipaddr.isValid(text)) return 'no es una dirección IP';
  if (family === 4) return reasonIn(ipaddr.IPv4.parse(text), IPV4_BLOCKED);
  // In hexadecimal as the URL parser writes it: ipaddr.js reads a trailing dotted quad after `::`
  // (`::8.8.8.8`) as IPv4-mapped, where the network stack reads IPv4-compatible (`::808:808`).
  let v6: ipaddr.IPv6;
  try {
    v6 = ipaddr.IPv6.parse(new URL(`http://[${text}]/`).hostname.slice(1, -1));
  } catch {
    return 'no es una dirección IP';
  }
  if (v6.match(IPV4_MAPPED) || v6.match(NAT64_WELL_KNOWN)) return reasonIn(carriedIPv4(v6), IPV4_BLOCKED);
  const reason = reasonIn(v6, IPV6_BLOCKED);
  if (reason) return reason;
  if (v6.match(IPV4_COMPATIBLE)) return reasonIn(carriedIPv4(v6), IPV4_BLOCKED) ?? 'compatible con IPv4 (obsoleta)';
  return v6.match(GLOBAL_UNICAST) ? null : 'reservada';
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Why a target was refused (never sent to), with a short Spanish text for the delivery log. */
export class TargetRefusedError extends Error {
  constructor(
    message: string,
    /** The name did not resolve, or it resolved to an address that may not be called. */
    readonly reason: 'unresolved' | 'blocked',
  ) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** A URL's host without the brackets of an IPv6 literal. */
export const urlHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type Lookup = (host: string) => Promise<ResolvedAddress[]>;

/** A name that does not resolve within this long is refused (the resolver has no limit of its own). */
const LOOKUP_TIMEOUT_MS = 5_000;

/** Every address of a name, as the system resolves it (an IP literal is its own address). */
export const systemLookup: Lookup = async (host) => {
  const family = net.isIP(host);
  if (family) return [{ address: host, family: family as 4 | 6 }];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })), LOOKUP_TIMEOUT_MS);
  });
  try {
    const all = await Promise.race([dns.promises.lookup(host, { all: true, verbatim: true }), timeout]);
    return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
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
    throw new TargetRefusedError(`No se pudo resolver ${host}${code ? ` (${code})` : ''}`, 'unresolved');
  }
  if (addresses.length === 0) throw new TargetRefusedError(`No se pudo resolver ${host}`, 'unresolved');
  if (allowPrivate) return addresses;
  for (const a of addresses) {
    const reason = blockedReason(a.address);
    if (reason) throw new TargetRefusedError(`Destino no permitido: ${a.address} (${reason})`, 'blocked');
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
