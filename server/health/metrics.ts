import type { RequestHandler } from 'express';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  /** Records every request's duration by method, route pattern and status. */
  middleware: RequestHandler;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** The route pattern for metrics when no Express route matched (SSR pages, assets). */
    metricsRoute?: string;
  }
}

/** A registry per app: default Node metrics plus the HTTP request duration histogram. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duración de las solicitudes HTTP por método, ruta y estado',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      const route = res.locals.metricsRoute ?? (req.route?.path !== undefined ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched');
      end({ method: req.method, route, status_code: String(res.statusCode) });
    });
    next();
  };
  return { registry, middleware };
}
