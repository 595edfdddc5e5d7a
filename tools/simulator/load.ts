/**
 * The simulator's load mode: agents that already hold their device tokens check in (`wait: 0`, no
 * long poll, no scenario) over a fixed number of keep-alive connections, each request the next
 * agent's token. It measures check-ins per second and their latency (target P7,
 * docs/benchmarks.md). A fleet large enough for that (10^6 devices, 10^5 agents) cannot enroll
 * through the API in a useful time (enrollments are rate limited per IP), so the tokens come from
 * whoever seeded the devices: `npm run bench:agent` seeds them in the database and drives this mode.
 *
 * Two ways to load the server:
 * - closed loop (no `ratePerSecond`): each connection sends its next check-in as soon as the last is
 *   answered, so the server runs as fast as it can: the most check-ins per second it answers. Its
 *   latency is that of a saturated server with `connections` requests always waiting (on average
 *   connections ÷ throughput, by Little's law), so it says how many connections were open, not how
 *   long an agent waits at a given rate. The load generator is autocannon (HTTP/1.1, pipelining off):
 *   one Node process can send thousands of requests a second, which `fetch` per agent cannot.
 * - open loop (`ratePerSecond`): check-ins are due on a fixed schedule (one every 1/rate seconds),
 *   as a fleet's agents check in whatever the server's speed, and each latency counts from the
 *   instant the check-in was due, so a check-in that waited for a free connection or for the
 *   server's backlog counts that wait (no coordinated omission). This is the latency at that rate.
 *   Node's own HTTP client with a keep-alive pool of `connections` sockets (autocannon's rate
 *   limit sends each connection's share of a second back to back, which is a burst, not a rate).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { signRequest } from '../../server/agent/requestSignature';

/** A check-in ready to send: its headers (the agent's bearer token and signature) and the exact body signed. */
export interface PreparedCheckin {
  headers: Record<string, string>;
  body: string;
}

export interface CheckinLoadOptions {
  /** One server, or several (connections alternate between them: round-robin over replicas). */
  urls: readonly string[];
  connections: number;
  durationSeconds: number;
  /** The next check-in to send (the run's `request`-th): see `signCheckins`. */
  nextCheckin: (request: number) => PreparedCheckin;
  /** Check-ins due per second (open loop); unset, as many as the server answers (closed loop). */
  ratePerSecond?: number;
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

/** How long an open-loop check-in may take before it counts as a timeout (autocannon's default). */
const OPEN_LOOP_TIMEOUT_MS = 10_000;

const CHECKIN_PATH = '/agent/v1/checkin';
const defaultReport = (i: number) => ({ batteryLevel: 20 + (i % 80) });

/**
 * One signed check-in per agent (`wait: 0` and what `report` adds), made now. The server verifies
 * every request, so a run sends each agent's again and again; a signature is good for 5 minutes
 * (SIGNATURE_MAX_SKEW_SECONDS): sign again before each run.
 */
export async function signCheckins(
  agents: readonly { token: string; keys: { privateKey: CryptoKey } }[],
  report: (agent: number) => Record<string, unknown> = defaultReport,
): Promise<PreparedCheckin[]> {
  const out: PreparedCheckin[] = [];
  for (let from = 0; from < agents.length; from += 1000) {
    const chunk = agents.slice(from, from + 1000);
    out.push(
      ...(await Promise.all(
        chunk.map(async (a, k) => {
          const body = JSON.stringify({ wait: 0, ...report(from + k) });
          const signed = await signRequest(a.keys.privateKey, { method: 'POST', path: CHECKIN_PATH, body });
          return { headers: { authorization: `Bearer ${a.token}`, ...signed }, body };
        }),
      )),
    );
  }
  return out;
}

/** Check-ins for `durationSeconds`: as fast as the server(s) answer, or at `ratePerSecond`. */
export async function runCheckinLoad(opts: CheckinLoadOptions): Promise<CheckinLoadResult> {
  return opts.ratePerSecond ? runOpenLoop(opts, opts.ratePerSecond) : runClosedLoop(opts);
}

async function runClosedLoop(opts: CheckinLoadOptions): Promise<CheckinLoadResult> {
  let sent = 0;
  const r = await autocannon({
    url: (opts.urls.length === 1 ? opts.urls[0] : [...opts.urls]) as string,
    connections: opts.connections,
    duration: opts.durationSeconds,
    requests: [
      {
        method: 'POST',
        path: CHECKIN_PATH,
        setupRequest: (req) => {
          const checkin = opts.nextCheckin(sent++);
          return { ...req, headers: { ...req.headers, ...checkin.headers, 'content-type': 'application/json' }, body: checkin.body };
        },
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

/** The value below which `p` % of `xs` fall (nearest rank; 0 for none): the benchmarks' percentile too. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((sorted.length * p) / 100) - 1))]!;
}

async function runOpenLoop(opts: CheckinLoadOptions, rate: number): Promise<CheckinLoadResult> {
  const targets = opts.urls.map((u) => {
    const url = new URL(u);
    // The connections split over the servers, as autocannon's closed loop splits them.
    const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(1, Math.round(opts.connections / opts.urls.length)) });
    return { hostname: url.hostname, port: url.port, agent };
  });
  const total = Math.max(1, Math.floor(rate * opts.durationSeconds));
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let settled = 0;
  let sent = 0;
  let lastAnswer = 0;
  let allSettled!: () => void;
  const done = new Promise<void>((resolve) => (allSettled = resolve));

  const send = (i: number, due: number) => {
    const target = targets[i % targets.length]!;
    const { headers, body } = opts.nextCheckin(i);
    let outcome: 'ok' | 'non2xx' | 'error' | 'timeout' | undefined;
    // Each check-in ends once: answered, failed, or timed out (its destroy then also emits 'error').
    const end = (how: NonNullable<typeof outcome>) => {
      if (outcome) return;
      outcome = how;
      if (how === 'ok') ok++;
      else if (how === 'non2xx') non2xx++;
      else if (how === 'timeout') timeouts++;
      else errors++;
      if (++settled === total) allSettled();
    };
    const req = http.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: CHECKIN_PATH,
        method: 'POST',
        agent: target.agent,
        timeout: OPEN_LOOP_TIMEOUT_MS,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        // A connection cut in the middle of an answer ends it as an error (no 'end' comes).
        res.once('close', () => {
          if (!res.complete) end('error');
        });
        res.once('end', () => {
          lastAnswer = performance.now();
          latencies.push(lastAnswer - due);
          end(res.statusCode! >= 200 && res.statusCode! < 300 ? 'ok' : 'non2xx');
        });
      },
    );
    req.once('timeout', () => {
      end('timeout');
      req.destroy();
    });
    req.once('error', () => end('error'));
    req.end(body);
  };

  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      // Every check-in now due is sent, each with its own due instant (the timer is late at times).
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (sent < due) {
        send(sent, start + (sent * 1000) / rate);
        sent++;
      }
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await done;
  for (const t of targets) t.agent.destroy();
  const seconds = ((lastAnswer || performance.now()) - start) / 1000;
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    requests: total,
    seconds,
    perSecond: (ok + non2xx) / seconds,
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p97_5: round(percentile(latencies, 97.5)),
      p99: round(percentile(latencies, 99)),
      max: round(percentile(latencies, 100)),
    },
    ok,
    non2xx,
    errors,
    timeouts,
  };
}
