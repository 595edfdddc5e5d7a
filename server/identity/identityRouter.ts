import { randomUUID } from 'node:crypto';
import express, { Router, type Response } from 'express';
import { isConnectionError } from '../db/connectionErrors';
import { DB_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors';
import { handleAdminOperation, requiresSignature } from './adminProtocol';
import { Cognito, CognitoError } from './cognitoErrors';
import type { IdentityService } from './identityService';
import { verifySigV4 } from './sigv4';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const CONTENT_TYPE = 'application/x-amz-json-1.1';

function send(res: Response, status: number, body: unknown): void {
  res.status(status).set('Content-Type', CONTENT_TYPE).set('Cache-Control', 'no-store').send(JSON.stringify(body));
}

function sendError(res: Response, err: CognitoError): void {
  res.set('x-amzn-ErrorType', `${err.type}:`);
  send(res, err.status, { __type: err.type, message: err.message });
}

/**
 * The embedded Cognito-compatible endpoint, mounted on the portal's own origin: the JSON 1.1
 * protocol on POST `/`, and the JWKS and OpenID discovery under `/<poolId>/.well-known/`.
 * Bodies are never logged (they carry passwords). Administrator operations (AdminCreateUser,
 * ListUsers…) are served only with a valid SigV4 signature made with the endpoint's own admin
 * key (`identity.adminCredentials()`), verified over the raw body as received.
 */
export function identityRouter(identity: IdentityService, opts: { now?: () => number } = {}): Router {
  const router = Router();
  const now = opts.now ?? Date.now;
  /** The body bytes as received, for signature verification (the parser gives a decoded string). */
  const rawBodies = new WeakMap<object, Buffer>();

  router.get(`/${identity.userPoolId}/.well-known/jwks.json`, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(identity.jwks);
  });
  router.get(`/${identity.userPoolId}/.well-known/openid-configuration`, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json({
      issuer: identity.issuer,
      jwks_uri: `${identity.issuer}/.well-known/jwks.json`,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code', 'token'],
    });
  });

  router.post(
    '/',
    (req, res, next) => {
      res.set('x-amzn-RequestId', randomUUID());
      if (!req.is(CONTENT_TYPE)) {
        sendError(res, new CognitoError('UnsupportedMediaTypeException', `Content-Type must be ${CONTENT_TYPE}`));
        return;
      }
      const target = req.get('x-amz-target');
      if (!target?.startsWith(TARGET_PREFIX)) {
        sendError(res, new CognitoError('UnknownOperationException', 'Missing or invalid X-Amz-Target'));
        return;
      }
      next();
    },
    express.text({
      type: CONTENT_TYPE,
      limit: '64kb',
      verify: (req, _res, buf) => {
        rawBodies.set(req, buf);
      },
    }),
    async (req, res) => {
      const operation = req.get('x-amz-target')!.slice(TARGET_PREFIX.length);
      const admin = requiresSignature(operation);
      if (admin) {
        try {
          await verifySigV4(
            { method: req.method, url: req.originalUrl, headers: req.headers, body: rawBodies.get(req) ?? Buffer.alloc(0) },
            { credentials: identity.adminCredentials(), region: identity.region, service: 'cognito-idp', now: now() },
          );
        } catch (err) {
          if (!(err instanceof CognitoError)) {
            req.log?.error({ err, operation }, 'identity admin signature check failed');
            sendError(res, Cognito.internal());
            return;
          }
          req.log?.warn({ operation, error: err.type }, 'identity admin request refused');
          sendError(res, err);
          return;
        }
      }
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(typeof req.body === 'string' ? req.body : '');
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        body = parsed as Record<string, unknown>;
      } catch {
        sendError(res, new CognitoError('SerializationException', 'The request body is not a JSON object'));
        return;
      }
      try {
        const context = { ip: req.ip, requestId: req.id === undefined ? undefined : String(req.id) };
        send(res, 200, admin ? await handleAdminOperation(identity, operation, body) : await identity.handle(operation, body, context));
      } catch (err) {
        if (err instanceof CognitoError) {
          req.log?.info({ operation, error: err.type }, 'identity operation refused');
          sendError(res, err);
          return;
        }
        if (isConnectionError(err)) {
          // The database is unreachable: the protocol's internal error, as a 503 the client may retry.
          req.log?.warn({ err, operation }, 'identity operation: database unavailable');
          res.set('Retry-After', String(DB_UNAVAILABLE_RETRY_AFTER_SECONDS));
          sendError(res, new CognitoError('InternalErrorException', 'Service temporarily unavailable', 503));
          return;
        }
        req.log?.error({ err, operation }, 'identity operation failed');
        sendError(res, Cognito.internal());
      }
    },
  );

  // Oversized bodies and the like: the protocol's error shape, never the portal's.
  router.use((err: { type?: string; status?: number }, _req: express.Request, res: Response, _next: express.NextFunction) => {
    if (err.type === 'entity.too.large') {
      sendError(res, new CognitoError('InvalidParameterException', 'Request body is too large'));
      return;
    }
    sendError(res, new CognitoError('SerializationException', 'The request body could not be read', err.status ?? 400));
  });
  return router;
}
