import { Router } from 'express';
import type { Metrics } from './metrics';
import type { Readiness } from './readiness';

/** `/healthz` (liveness, no I/O), `/readyz` (dependencies), `/metrics` (Prometheus). */
export function healthRouter(readiness: Readiness, metrics: Metrics): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const report = await readiness.report();
    res
      .set('Cache-Control', 'no-store')
      .status(report.ready ? 200 : 503)
      .json(report);
  });
  router.get('/metrics', async (_req, res) => {
    res.set('Content-Type', metrics.registry.contentType).set('Cache-Control', 'no-store');
    res.send(await metrics.registry.metrics());
  });
  return router;
}
