/**
 * What `npm start` adds to the environment for the embedded demo, outside production only and
 * only where the variable is not set already (an explicit value, `false` included, wins). The
 * server's own defaults keep both off, so a deployment that runs `node dist/server.js` (the image,
 * the chart) gets neither by accident.
 *
 * - WEBHOOK_ALLOW_PRIVATE_TARGETS: webhooks may call this machine (a receiver on 127.0.0.1, such
 *   as `npm run integration -- webhook`) and the private network.
 * - AGENT_ENROLL_EXEMPT_LOOPBACK: the demo's simulated agents, which enroll from 127.0.0.1, are not
 *   held back by the per-IP enrollment limit.
 */
export const DEMO_DEFAULTS: Readonly<Record<string, string>> = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  AGENT_ENROLL_EXEMPT_LOOPBACK: 'true',
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
