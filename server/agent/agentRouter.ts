/**
 * The device agent's API, /agent/v1: JSON, authenticated by the device token (no portal
 * session), rate-limited per device (check-ins, acknowledgements, events) and per client IP
 * (enrollment). Bodies are validated by the shared schemas of shared/contracts/agent.ts: a bad
 * body is a 400 naming the field. Every answer is `no-store`.
 */
import express, { Router, type Request, type RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { checkinBody, commandIdParams, enrollBody, eventBody, rejectBody } from '../../shared/contracts/agent';
import { MESSAGES } from '../../shared/messages';
import { AGENT_MESSAGES as A } from '../../shared/areaMessages/agent';
import { AppError } from '../errors';
import { requestLog } from '../middleware/requestLog';
import { route } from '../middleware/validate';
import type { Logger } from '../logger';
import type { AgentMetrics } from './agentMetrics';
import type { AgentCredentials, AgentRequest, AgentService } from './agentService';
import { bearerOf } from './agentTokens';
import { bodyDigest, proofOf, SIGNATURE_MAX_SKEW_SECONDS, type ProofRefusal } from './requestSignature';

export interface AgentLimits {
  /** Requests per device token per minute (check-ins, acknowledgements, events, settings). */
  perDevicePerMinute: number;
  /** Enrollment attempts per client IP per minute. */
  enrollPerIpPerMinute: number;
  /** Enrollments from loopback (the demo's simulated fleet, a local simulator) skip that limit. */
  enrollExemptLoopback: boolean;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** The device token of an agent request (checked by the service against the database). */
    deviceToken?: string;
    /** The token and the request's signature (checked by the service against the device's key). */
    agentCredentials?: AgentCredentials;
  }
}

/** This host as `req.ip` names it (an IPv4 peer of a dual-stack socket is IPv4-mapped). */
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const requestOf = (req: Request): AgentRequest => ({ ip: req.ip ?? null, requestId: req.id === undefined ? null : String(req.id) });

/**
 * Mounted before the page middleware (security headers, compression, the portal's request log): a
 * check-in is the most frequent request the server gets. Its own request log logs only the refused
 * and failed requests, at the level of their status (successes are counted in /metrics, and every
 * change they make has its audit row).
 */
export function agentRouter(service: AgentService, metrics: AgentMetrics, limits: AgentLimits, logger: Logger): Router {
  const router = Router();
  router.use(
    requestLog(logger, { message: 'agent request completed', level: (status) => (status >= 500 ? 'error' : status >= 400 ? 'warn' : 'silent') }),
  );
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // The digest of the raw body the parser read: what a request's signature covers.
  const bodyDigests = new WeakMap<object, string>();
  router.use(
    express.json({
      limit: '64kb',
      verify: (req, _res, buf) => {
        bodyDigests.set(req, bodyDigest(buf));
      },
    }),
  );
  const EMPTY_BODY = bodyDigest();
  const proofMessages: Record<ProofRefusal, string> = {
    AGENT_SIGNATURE_MISSING: A.auth.signatureMissing,
    AGENT_SIGNATURE_MALFORMED: A.auth.signatureMalformed,
    AGENT_SIGNATURE_STALE: A.auth.signatureStale(SIGNATURE_MAX_SKEW_SECONDS / 60),
  };

  const tooMany = (message: string) => new AppError(429, 'RATE_LIMITED', message);
  const bearer: RequestHandler = (req, res, next) => {
    const token = bearerOf(req.get('authorization'));
    if (!token) {
      if (req.path === '/checkin') metrics.checkin('unauthorized');
      throw new AppError(401, 'DEVICE_TOKEN_MISSING', A.auth.missingToken);
    }
    // The signature's form and freshness are checked here, before any read; the service checks it
    // against the key the device enrolled with.
    const proof = proofOf(
      (name) => req.get(name),
      { method: req.method, path: req.originalUrl, bodySha256: bodyDigests.get(req) ?? EMPTY_BODY },
      service.now().getTime(),
    );
    if (!proof.ok) {
      if (req.path === '/checkin') metrics.checkin('unauthorized');
      throw new AppError(401, proof.code, proofMessages[proof.code]);
    }
    res.locals.deviceToken = token;
    res.locals.agentCredentials = { token, proof: proof.proof };
    next();
  };
  // Per device: keyed by the token (a wrong token is refused by the service anyway).
  const perDevice = rateLimit({
    windowMs: 60_000,
    limit: limits.perDevicePerMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (_req, res) => res.locals.deviceToken ?? 'none',
    handler: (req, _res, next) => {
      if (req.path === '/checkin') metrics.checkin('rate_limited');
      next(tooMany(A.auth.rateLimited));
    },
  });
  // Per client IP: `req.ip`, the peer address or, with TRUST_PROXY hops, the client address those
  // proxies forwarded (the default key; IPv6 grouped by /56). Enrollments from this host itself
  // (the demo's simulated fleet, a local simulator) are exempt only when AGENT_ENROLL_EXEMPT_LOOPBACK says so.
  const perIp = rateLimit({
    windowMs: 60_000,
    limit: limits.enrollPerIpPerMinute,
    skip: (req) => limits.enrollExemptLoopback && LOOPBACK.has(req.ip ?? ''),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // An X-Forwarded-For that TRUST_PROXY does not trust is ignored on purpose (any client may send
    // one): it is not the misconfiguration this check reports.
    validate: { xForwardedForHeader: false },
    handler: (_req, _res, next) => next(tooMany(A.auth.rateLimited)),
  });

  router.post(
    '/enroll',
    perIp,
    route({ body: enrollBody }, async ({ body }, req, res) => {
      res.status(201).json(await service.enroll(body, requestOf(req)));
    }),
  );

  router.post('/checkin', bearer, perDevice, async (req, res, next) => {
    // The agent hanging up ends its wait (and frees the long poll). A connection closing after the
    // answer went out is no hang-up: aborting then would build an AbortError (a DOMException with
    // its stack) for every check-in, 2 % of the server's time under load.
    const hangUp = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) hangUp.abort();
    });
    try {
      await route({ body: checkinBody }, async ({ body }) => {
        const { answer } = await service.checkin(res.locals.agentCredentials!, body, requestOf(req), hangUp.signal);
        if (!res.writableEnded && !hangUp.signal.aborted) res.json(answer);
      })(req, res, next);
    } catch (err) {
      if (err instanceof AppError) metrics.checkin(err.status === 401 ? 'unauthorized' : err.status === 400 ? 'invalid' : 'error');
      else metrics.checkin('error');
      throw err;
    }
  });

  router.post(
    '/commands/:id/ack',
    bearer,
    perDevice,
    route({ params: commandIdParams }, async ({ params }, req, res) => {
      res.json(await service.complete(res.locals.agentCredentials!, params.id, { rejected: false }, requestOf(req)));
    }),
  );
  router.post(
    '/commands/:id/reject',
    bearer,
    perDevice,
    route({ params: commandIdParams, body: rejectBody }, async ({ params, body }, req, res) => {
      res.json(await service.complete(res.locals.agentCredentials!, params.id, { rejected: true, reason: body.reason }, requestOf(req)));
    }),
  );
  router.post(
    '/events',
    bearer,
    perDevice,
    route({ body: eventBody }, async ({ body }, req, res) => {
      res.json(await service.event(res.locals.agentCredentials!, body, requestOf(req)));
    }),
  );
  router.get('/settings', bearer, perDevice, async (req, res) => {
    const answer = await service.agentSettings(res.locals.agentCredentials!);
    // The version names the content: an agent holding it gets a 304 (no body).
    const etag = `"${answer.version}"`;
    res.set('ETag', etag).set('Cache-Control', 'private, no-cache');
    if (req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      res.status(304).end();
      return;
    }
    res.json(answer);
  });
  // Lock-screen logos: public (the device shows them before anything else), addressed by the
  // SHA-256 of their bytes, so a URL's content never changes.
  router.get('/logos/:sha256', async (req, res) => {
    const sha256 = req.params.sha256 ?? '';
    const logo = /^[0-9a-f]{64}$/.test(sha256) ? await service.logo(sha256) : undefined;
    if (!logo) throw new AppError(404, 'NOT_FOUND', MESSAGES.api.notFound);
    res
      .set('Content-Type', logo.contentType)
      .set('Cache-Control', 'public, max-age=31536000, immutable')
      .set('X-Content-Type-Options', 'nosniff')
      .set('ETag', `"${sha256}"`)
      .send(logo.bytes);
  });
  router.use((_req, _res, next) => next(new AppError(404, 'NOT_FOUND', MESSAGES.api.notFound)));
  return router;
}
