/**
 * The simulator's load mode: agents that already hold their device tokens check in as fast as
 * the server answers (`wait: 0`, no pacing, no long poll, no scenario), over a fixed number of
 * keep-alive connections, each request the next agent's token. It measures check-ins per second
 * and their latency (target P7, docs/benchmarks.md). A fleet large enough for that (10^6 devices,
 * 10^5 agents) cannot enroll through the API in a useful time (enrollments are rate limited per
 * IP), so the tokens come from whoever seeded the devices: `npm run bench:agent` seeds them in
 * the database and drives this mode. The load generator is autocannon (HTTP/1.1 pipelining off):
 * one Node process can send thousands of requests a second, which `fetch` per agent cannot.
 */
import autocannon from 'autocannon';

export interface CheckinLoadOptions {
  /** One server, or several (connections alternate between them: round-robin over replicas). */
  urls: readonly string[];
  connections: number;
  durationSeconds: number;
  /** The device token of the next check-in. */
  nextToken: () => string;
  /** What the check-in reports (besides `wait: 0`); the default reports a battery level. */
  report?: (request: number) => Record<string, unknown>;
}

export interface CheckinLoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  latencyMs: { p50: number; p97_5: number; p99: number; max: number };
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Check-ins as fast as the server(s) answer for `durationSeconds`. */
export async function runCheckinLoad(opts: CheckinLoadOptions): Promise<CheckinLoadResult> {
  let sent = 0;
  const report = opts.report ?? ((i: number) => ({ batteryLevel: 20 + (i % 80) }));
  const r = await autocannon({
    url: (opts.urls.length === 1 ? opts.urls[0] : [...opts.urls]) as string,
    connections: opts.connections,
    duration: opts.durationSeconds,
    requests: [
      {
        method: 'POST',
        path: '/agent/v1/checkin',
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${opts.nextToken()}` },
          body: JSON.stringify({ wait: 0, ...report(sent++) }),
        }),
      },
    ],
  });
  return {
    requests: r.requests.total,
    seconds: r.duration,
    perSecond: r.requests.total / r.duration,
    latencyMs: { p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99, max: r.latency.max },
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}
