/**
 * `Idempotency-Key` for the routes that create commands or jobs: a retried request with the
 * same key gets the first answer instead of acting twice. Keys are scoped by administrator; the
 * request is identified by a hash of its method, path and canonical JSON body, so the same key
 * with another request is refused (409). The key is stored with the answer in the transaction
 * that does the work: both exist, or neither.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { INVENTORY_MESSAGES as M } from '../../shared/areaMessages/inventory';
import type { Db, Queryable } from '../db/Db';
import { transaction } from '../db/transactionScope';
import { AppError } from '../errors';
import { IdempotencyRepository, type IdempotencyScope, type StoredKey } from './idempotencyRepository';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1 to 200 visible ASCII characters. */
const KEY = /^[\x21-\x7e]{1,200}$/;

/** The key of one request, scoped by its administrator or API key, and what identifies the request. */
export interface IdempotencyRequest extends IdempotencyScope {
  key: string;
  hash: string;
}

/** An answer to send: what the work answered, or the stored answer of a replay. */
export interface Answer<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/** JSON with object keys sorted at every level: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What identifies a request for its key: sha256 of method, path and canonical body. */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

/**
 * The idempotency of a guarded request, identified with its validated (parsed) `body`, or
 * undefined without the header. A malformed key is a 400.
 */
export function idempotencyOf(req: Request, res: Response, body: unknown): IdempotencyRequest | undefined {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined) return undefined;
  if (!KEY.test(key)) throw new AppError(400, 'IDEMPOTENCY_KEY', M.actions.idempotencyKey);
  const hash = requestHash(req.method, `${req.baseUrl}${req.path}`, body);
  if (res.locals.apiKey) return { adminId: 0, apiKeyId: res.locals.apiKey.id, key, hash };
  const adminId = res.locals.grants?.adminId;
  if (adminId === undefined) return undefined;
  return { adminId, apiKeyId: 0, key, hash };
}

/** Sends an answer; a replay carries `Idempotent-Replayed: true`. */
export function sendAnswer(res: Response, answer: Answer<unknown>): void {
  if (answer.replayed) res.setHeader(REPLAYED_HEADER, 'true');
  res.status(answer.status).json(answer.body);
}

function stored(q: Queryable, r: IdempotencyRequest): Promise<StoredKey | undefined> {
  return new IdempotencyRepository(q).find(r, r.key);
}

export interface IdempotentOptions<T> {
  /** What is stored of the answer (default: the answer itself), e.g. without a one-time secret. */
  toStored?: (body: T) => unknown;
  /** The answer of a replay from what was stored (default: what was stored). */
  fromStored?: (tx: Queryable, stored: unknown) => Promise<T>;
}

/**
 * Runs `work` in one transaction, once per key: a stored key with the same request answers its
 * stored answer (replayed) and does nothing; with another request it is a 409. A concurrent
 * duplicate that did the work too fails on the key's primary key (or on the state the first one
 * left) and is rolled back: it answers the first one's stored answer.
 */
export async function idempotent<T>(
  db: Db,
  request: IdempotencyRequest | undefined,
  status: number,
  work: (tx: Queryable) => Promise<T>,
  opts: IdempotentOptions<T> = {},
): Promise<Answer<T>> {
  if (!request) return { status, body: await transaction(db, work), replayed: false };
  const replay = async (tx: Queryable, row: StoredKey): Promise<Answer<T>> => {
    if (row.request_hash !== request.hash) throw new AppError(409, 'IDEMPOTENCY_MISMATCH', M.actions.idempotencyMismatch);
    const body = opts.fromStored ? await opts.fromStored(tx, row.response) : (row.response as T);
    return { status: row.status_code, body, replayed: true };
  };
  try {
    return await transaction(db, async (tx) => {
      const row = await stored(tx, request);
      if (row) return replay(tx, row);
      const body = await work(tx);
      await new IdempotencyRepository(tx).insert({ ...request, status, response: opts.toStored ? opts.toStored(body) : body });
      return { status, body, replayed: false };
    });
  } catch (err) {
    // The work failed or the key was taken meanwhile: if a concurrent request with this key
    // committed, this one is its retry.
    const row = await stored(db, request).catch(() => undefined);
    if (row) return transaction(db, (tx) => replay(tx, row));
    throw err;
  }
}
