import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { ImportResult } from '../../shared/contracts/deviceImport';
import type { BulkBodyInput, Job } from '../../shared/contracts/jobs';
import type { Db } from '../../server/db/Db';
import { bootstrap } from '../../server/db/bootstrap';
import { signJwt } from '../../server/identity/jwt';
import { loadOrCreateKeys, type SigningKeys } from '../../server/identity/keys';
import { buildTestApp, type TestApp } from './testApp';

export const DEMO_PASSWORD = 'Demo-Portal-2026!';

export interface AdminApi {
  ta: TestApp;
  db: Db;
  /**
   * The API headers of a signed-in administrator, with tokens as the embedded endpoint issues
   * them (and its record of that sign-in, so the session is live). `at` sets the sign-in time.
   */
  headersOf(email: string, opts?: { at?: number }): Promise<Record<string, string>>;
  /** The record of a sign-in made by `headersOf` (its origin_jti) as the endpoint keeps it. */
  originOf(headers: Record<string, string>): string;
  /** An administrator with an identity user, written directly (test set-up, not the API). */
  addAdmin(email: string, profileId: number, opts?: { enabled?: boolean }): Promise<number>;
  /** A profile written directly (test set-up, not the API). */
  addProfile(nombre: string, paths: readonly string[], actions: readonly number[]): Promise<number>;
  count(table: 'admins' | 'profiles' | 'audit_log' | 'identity_users'): Promise<number>;
  /** A bulk action through the API (202), run to its end by the app's job runner; the job as GET /jobs/:id answers it. */
  bulkAction(headers: Record<string, string>, body: BulkBodyInput): Promise<Job>;
  /** A CSV import committed through the API (UTF-8, one line per string, the header first); its answer. */
  importCsv(headers: Record<string, string>, lines: readonly string[]): Promise<ImportResult>;
}

/** The app on `db` with the demo data (admin@, inventario@, soporte@demo.local) and helpers. */
export async function adminApi(db: Db, opts: Parameters<typeof buildTestApp>[1] = {}): Promise<AdminApi> {
  const ta = await buildTestApp(db, { ...opts, env: { DEMO_PASSWORD, ...opts.env } });
  await bootstrap(db, ta.config, ta.deps.identity);
  const keys: SigningKeys = await loadOrCreateKeys(db);
  const identity = ta.deps.identity!;
  return {
    ta,
    db,
    async headersOf(email, o = {}) {
      const { sub } = await identity.admin.adminGetUser(email);
      const now = o.at ?? Math.floor(Date.now() / 1000);
      const clientId = ta.config.identity.clientId;
      const originJti = randomUUID();
      await db.query(
        `INSERT INTO identity_refresh_tokens (token_hash, sub, client_id, origin_jti, auth_time, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + interval '1 day')`,
        [randomUUID(), sub, clientId, originJti, now],
      );
      const common = {
        sub,
        iss: identity.issuer,
        origin_jti: originJti,
        event_id: randomUUID(),
        auth_time: now,
        iat: now,
        exp: Math.floor(Date.now() / 1000) + 600,
        jti: randomUUID(),
      };
      return {
        AccessToken: signJwt(
          { ...common, client_id: clientId, token_use: 'access', scope: 'aws.cognito.signin.user.admin', username: email },
          keys.access,
        ),
        IdToken: signJwt({ ...common, email, aud: clientId, token_use: 'id', 'cognito:username': email }, keys.id),
        username: email,
      };
    },
    originOf(headers) {
      const payload = headers.AccessToken!.split('.')[1]!;
      return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { origin_jti: string }).origin_jti;
    },
    async addAdmin(email, profileId, o = {}) {
      await identity.admin.adminCreateUser({ username: email, attributes: { email, email_verified: 'true' }, temporaryPassword: DEMO_PASSWORD });
      await identity.admin.adminSetUserPassword(email, DEMO_PASSWORD, true);
      const res = await db.query<{ id: number }>(
        'INSERT INTO admins (correo, nombres, apellidos, profile_id, enabled) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        [email, email.split('@')[0], 'Prueba', profileId, o.enabled ?? true],
      );
      return res.rows[0]!.id;
    },
    async addProfile(nombre, paths, actions) {
      const res = await db.query<{ id: number }>('INSERT INTO profiles (nombre, paths, actions) VALUES ($1, $2, $3) RETURNING id', [
        nombre,
        [...paths],
        [...actions],
      ]);
      return res.rows[0]!.id;
    },
    async count(table) {
      const res = await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
      return res.rows[0]!.n;
    },
    async bulkAction(headers, body) {
      const queued = (await request(ta.app).post('/api/v5/devices/bulk-actions').set(headers).send(body).expect(202)).body as Job;
      await ta.services.jobRunner.idle();
      return (await request(ta.app).get(`/api/v5/jobs/${queued.id}`).set(headers).expect(200)).body as Job;
    },
    async importCsv(headers, lines) {
      const res = await request(ta.app)
        .post('/api/v5/devices/import?mode=commit')
        .set(headers)
        .set('Content-Type', 'text/csv; charset=utf-8')
        .send(lines.join('\n'))
        .expect(200);
      return res.body as ImportResult;
    },
  };
}
