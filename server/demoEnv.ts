/**
 * What `npm start` adds to the environment for the embedded demo (`node dist/server.js --demo`),
 * outside production only and only where the variable is not set already (an explicit value,
 * `false` included, wins). The server's own defaults keep them off, so a deployment that runs
 * `node dist/server.js` (the image, the chart) gets none by accident.
 *
 * - WEBHOOK_ALLOW_PRIVATE_TARGETS: webhooks may call this machine (a receiver on 127.0.0.1, such
 *   as `npm run integration -- webhook`) and the private network.
 * - AGENT_ENROLL_EXEMPT_LOOPBACK: the demo's simulated agents, which enroll from 127.0.0.1, are not
 *   held back by the per-IP enrollment limit.
 * - PGLITE_SHARED_BUFFERS_MB: 16 MB of buffer cache hold the demo's hot pages (its database is
 *   about 100 MB; the file cache serves the rest); PostgreSQL's 128 MB would stay in the process
 *   once filled (docs/benchmarks.md, M).
 */
export const DEMO_DEFAULTS: Readonly<Record<string, string>> = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  AGENT_ENROLL_EXEMPT_LOOPBACK: 'true',
  PGLITE_SHARED_BUFFERS_MB: '16',
};

/** Sets the demo's defaults on `env` (outside production, where unset); answers the names it set. */
export function applyDemoDefaults(env: NodeJS.ProcessEnv): string[] {
  if (env.NODE_ENV === 'production') return [];
  const set: string[] = [];
  for (const [name, value] of Object.entries(DEMO_DEFAULTS)) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
