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
import ipaddr from 'ipaddr.js';

/** The Spanish name of every range ipaddr.js knows that a webhook may not call (only `unicast` may be). */
const RANGE_NAMES: Readonly<Record<string, string>> = {
  unspecified: 'sin especificar',
  broadcast: 'difusión',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'compartida (CGNAT)',
  private: 'privada',
  uniqueLocal: 'privada (ULA)',
  deprecatedSiteLocal: 'site-local',
  discard: 'descarte',
  reserved: 'reservada',
};

/**
 * Why an IP address may not be called ('loopback', 'privada', …), or null when it is public
 * unicast (ranges from ipaddr.js). An IPv6 address carrying an IPv4 one (mapped, compatible,
 * NAT64) is judged as that IPv4 address; other tunnels (6to4, Teredo) are refused. Anything that
 * is not an IP address is refused too.
 */
export function blockedReason(ip: string): string | null {
  const text = ip.replace(/%.*$/, '');
  if (!ipaddr.isValid(text) || net.isIP(text) === 0) return 'no es una dirección IP';
  const parsed = ipaddr.parse(text);
  const range = parsed.range();
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (range === 'ipv4Mapped') return blockedReason(v6.toIPv4Address().toString());
    if (range === 'rfc6052') return blockedReason(ipaddr.fromByteArray(v6.toByteArray().slice(12)).toString());
  }
  if (range === 'unicast') return null;
  return RANGE_NAMES[range] ?? 'reservada';
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
