import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { AuditEntryView } from '../../shared/contracts/audit';
import { record } from '../../server/audit/auditRepository';
import { migrate } from '../../server/db/migrate';
import { migrations } from '../../server/db/migrations/index';
import { IdentityService } from '../../server/identity/identityService';
import { LogCapture } from '../helpers/testApp';
import { createLogger } from '../../server/logger';
import { adminApi, DEMO_PASSWORD, type AdminApi } from '../helpers/adminApi';
import { completeNewPassword, failure, makePool, signIn } from '../helpers/cognitoClient';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

/** RFC 4180 lines and cells (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) throw new Error('the file does not end with CRLF');
  return rows;
}

/** The raw bytes of an answer (supertest would decode text). */
const binary = (res: unknown, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

const HEADER = [
  'id',
  'fecha (UTC)',
  'id_actor',
  'correo_actor',
  'ip',
  'id_solicitud',
  'entidad',
  'id_entidad',
  'accion',
  'resultado',
  'detalle',
  'antes',
  'despues',
];

describe.each(testEngines())('audit log on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    // Dated rows for the date filters (inserting is what the log allows).
    for (const [at, entity, action, email] of [
      ['2024-01-15T10:00:00Z', 'device', 'lock', 'Operador@Demo.local'],
      ['2024-01-16T23:30:00Z', 'device', 'unlock', 'operador@demo.local'],
      ['2024-01-17T05:30:00Z', 'group', 'create', 'otro@demo.local'],
      ['2024-02-01T12:00:00Z', 'device', 'lock', 'otro@demo.local'],
    ] as const) {
      await t.db.query('INSERT INTO audit_log (at, actor_email, entity, entity_id, action) VALUES ($1, $2, $3, $4, $5)', [
        at,
        email,
        entity,
        '7',
        action,
      ]);
    }
  }, 60_000);
  afterAll(async () => {
    await t.dispose();
  });

  const app = () => api.ta.app;
  const list = async (query: Record<string, string | number>) => {
    const res = await request(app()).get('/api/v5/audit').query(query).set(admin).expect(200);
    return res.body as { data: AuditEntryView[]; total: number };
  };
  const exportCsv = async (query: Record<string, string> = {}) => {
    const res = await request(app()).get('/api/v5/audit/export').query(query).set(admin).buffer(true).parse(binary).expect(200);
    return { res, bytes: res.body as Buffer };
  };

  test('the database refuses UPDATE, DELETE and TRUNCATE on audit_log, even of no row', async () => {
    const before = (await t.db.query('SELECT * FROM audit_log ORDER BY id')).rows;
    for (const sql of [
      "UPDATE audit_log SET detail = 'cambiado'",
      "UPDATE audit_log SET outcome = 'failure' WHERE id = -1",
      'DELETE FROM audit_log',
      'DELETE FROM audit_log WHERE id = -1',
      'TRUNCATE audit_log',
    ]) {
      await expect(t.db.query(sql)).rejects.toThrow(/audit_log is append-only/);
      await expect(t.db.transaction((tx) => tx.query(sql))).rejects.toThrow(/append-only/);
    }
    expect((await t.db.query('SELECT * FROM audit_log ORDER BY id')).rows).toEqual(before);
    // Inserting stays possible.
    await t.db.transaction((tx) =>
      record(tx, {
        actor: { adminId: null, email: 'operador@demo.local', ip: null, requestId: null },
        entity: 'group',
        action: 'create',
        detail: 'ok',
      }),
    );
  });

  test('record(): written with the transaction of the change, gone when it rolls back', async () => {
    const count = await api.count('audit_log');
    await expect(
      t.db.transaction(async (tx) => {
        await record(tx, { actor: { adminId: 1, email: 'admin@demo.local', ip: '10.0.0.1', requestId: 'r-1' }, entity: 'group', action: 'delete' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await api.count('audit_log')).toBe(count);
  });

  test('lists newest first with the total; paging; answers before/after as JSON', async () => {
    await request(app())
      .post('/api/v5/roles')
      .set(admin)
      .send({ nombre: 'Lectura, "solo"', paths: ['/dashboard'], actions: [] })
      .expect(201);
    const all = await list({});
    expect(all.total).toBe(await api.count('audit_log'));
    const ids = all.data.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.data[0]).toMatchObject({
      entity: 'role',
      action: 'create',
      actorEmail: 'admin@demo.local',
      actorAdminId: 1,
      outcome: 'success',
      before: null,
      after: { nombre: 'Lectura, "solo"', paths: ['/dashboard'], actions: [] },
    });
    expect(all.data[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const page2 = await list({ perPage: 2, page: 2 });
    expect(page2.total).toBe(all.total);
    expect(page2.data.map((r) => r.id)).toEqual(ids.slice(2, 4));
    expect((await list({ perPage: 100, page: 1000 })).data).toEqual([]);
  });

  test('filters: actor (any case), entity, entity id, action, outcome, dates (a bare date is the whole day)', async () => {
    const ofActor = await list({ actor: 'OPERADOR@demo.local' });
    expect(ofActor.data.map((r) => r.action).sort()).toEqual(['create', 'lock', 'unlock']);
    expect((await list({ entity: 'device' })).total).toBe(3);
    expect((await list({ entity: 'device', action: 'lock' })).total).toBe(2);
    expect((await list({ entity: 'device', entityId: '7', action: 'unlock' })).total).toBe(1);
    expect((await list({ entity: 'group', outcome: 'failure' })).total).toBe(0);
    const day = await list({ from: '2024-01-16', to: '2024-01-16' });
    expect(day.data.map((r) => r.action)).toEqual(['unlock']);
    const range = await list({ from: '2024-01-15', to: '2024-01-17' });
    expect(range.data.map((r) => r.action)).toEqual(['create', 'unlock', 'lock']);
    // Instants with their zone: 2024-01-16T18:00-06:00 is 2024-01-17T00:00Z.
    const local = await list({ from: '2024-01-16T00:00:00-06:00', to: '2024-01-16T23:59:59.999-06:00' });
    expect(local.data.map((r) => r.action)).toEqual(['create', 'unlock']);
    expect((await list({ from: '2024-02-01T12:00:00Z', to: '2024-02-01T12:00:00Z' })).total).toBe(1);
    expect((await list({ from: '2030-01-01' })).total).toBe(0);
  });

  test('bad filters: 400 naming the parameter, on the list and the export (which then records nothing)', async () => {
    const count = await api.count('audit_log');
    const cases: [Record<string, string | string[]>, RegExp][] = [
      [{ perPage: '101' }, /^El parámetro Resultados por página debe ser un número entero entre 1 y 100$/],
      [{ page: '0' }, /^El parámetro Página /],
      [{ page: '1.5' }, /^El parámetro Página /],
      [{ from: 'ayer' }, /^El parámetro Desde debe ser una fecha/],
      [{ to: '2024-02-30' }, /^El parámetro Hasta debe ser una fecha/],
      [{ from: '2024-01-01T10:00:00' }, /^El parámetro Desde debe ser una fecha/],
      [{ from: '0001-01-01' }, /^El parámetro Desde /],
      // Outside the bounded range: a clear 400 instead of a database error (year 10000 on PGlite).
      [{ to: '9999-12-31' }, /^El parámetro Hasta debe ser una fecha entre 2000-01-01 y 2100-12-31$/],
      [{ from: '9999-12-31T23:59:59Z' }, /^El parámetro Desde debe ser una fecha entre 2000-01-01 y 2100-12-31$/],
      [{ to: '2101-01-01T00:00:00-01:00' }, /^El parámetro Hasta debe ser una fecha entre/],
      [{ from: '2000-01-01T00:00:00+01:00' }, /^El parámetro Desde debe ser una fecha entre/], // 1999-12-31T23:00Z
      [{ from: '1999-12-31' }, /^El parámetro Desde debe ser una fecha entre 2000-01-01 y 2100-12-31$/],
      [{ from: '2024-02-02', to: '2024-02-01' }, /^El parámetro Desde debe ser anterior o igual a Hasta$/],
      [{ outcome: 'ok' }, /^El parámetro Resultado debe ser uno de: success, failure$/],
      [{ entity: 'x'.repeat(51) }, /^El parámetro Entidad /],
      [{ actor: ['a', 'b'] }, /^El parámetro Actor /],
      [{ action: 'a\u0000' }, /^El parámetro Acción contiene caracteres no permitidos$/],
    ];
    for (const [query, message] of cases) {
      for (const path of ['/api/v5/audit', '/api/v5/audit/export']) {
        const res = await request(app()).get(path).query(query).set(admin).expect(400);
        expect(res.body.message).toMatch(message);
      }
    }
    expect(await api.count('audit_log')).toBe(count);
  });

  test('export: UTF-8 CSV with a BOM and a header, fields escaped, the same filters; the export itself is audited', async () => {
    const { res, bytes } = await exportCsv({ entity: 'role' });
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="auditoria-\d{4}-\d\d-\d\d\.csv"$/);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual(HEADER);
    const listed = await list({ entity: 'role' });
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(listed.data.filter((r) => r.entity === 'role').map((r) => r.id));
    const created = rows.find((r) => r[8] === 'create')!;
    expect(created[3]).toBe('admin@demo.local');
    expect(JSON.parse(created[12]!)).toMatchObject({ nombre: 'Lectura, "solo"' });
    // The raw line: the JSON cell is quoted, its quotes doubled.
    expect(bytes.toString('utf8')).toContain('"{""id"":');

    const exportRow = (await list({ entity: 'audit', action: 'export' })).data[0]!;
    expect(exportRow).toMatchObject({ actorEmail: 'admin@demo.local', outcome: 'success', detail: '{"entity":"role"}' });
    // The file holds the rows that existed when it started, not its own audit row.
    const again = parseCsv((await exportCsv({ entity: 'audit' })).bytes.subarray(3).toString('utf8'));
    expect(again.slice(1).map((r) => Number(r[0]))).toEqual([exportRow.id]);
  });

  test('export: formula-looking values neutralised; line breaks kept inside quotes', async () => {
    await t.db.query(
      "INSERT INTO audit_log (actor_email, entity, action, detail) VALUES ('=cmd@demo.local', 'csv', 'check', 'línea 1\nlínea 2, con coma')",
    );
    const rows = parseCsv((await exportCsv({ entity: 'csv' })).bytes.subarray(3).toString('utf8'));
    expect(rows).toHaveLength(2);
    expect(rows[1]![3]).toBe("'=cmd@demo.local");
    expect(rows[1]![10]).toBe('línea 1\nlínea 2, con coma');
  });

  test('export: every row, in batches, newest first', async () => {
    await t.db.query("INSERT INTO audit_log (entity, action, entity_id) SELECT 'bulk', 'row', g::text FROM generate_series(1, 2345) g");
    const { bytes } = await exportCsv({ entity: 'bulk' });
    const rows = parseCsv(bytes.subarray(3).toString('utf8')).slice(1);
    expect(rows).toHaveLength(2345);
    expect(rows.map((r) => Number(r[7]))).toEqual(Array.from({ length: 2345 }, (_, i) => 2345 - i));
  });

  test('dates at the edges of the range are accepted', async () => {
    expect((await list({ from: '2000-01-01', to: '2100-12-31' })).total).toBe(await api.count('audit_log'));
    expect((await list({ to: '2100-12-31T23:59:59.999Z' })).total).toBe(await api.count('audit_log'));
    await exportCsv({ from: '2000-01-01', to: '2100-12-31' });
  });

  test("export in the browser's zone (tz): the same rows, the date with that zone's offset, the header naming the zone", async () => {
    const utc = parseCsv((await exportCsv({ entity: 'role' })).bytes.subarray(3).toString('utf8'));
    const { bytes } = await exportCsv({ entity: 'role', tz: 'America/Mexico_City' });
    const zoned = parseCsv(bytes.subarray(3).toString('utf8'));
    expect(zoned[0]).toEqual(HEADER.map((c) => (c === 'fecha (UTC)' ? 'fecha (America/Mexico_City)' : c)));
    expect(zoned.slice(1).map((r) => r[0])).toEqual(utc.slice(1).map((r) => r[0]));
    expect(zoned.length).toBeGreaterThan(1);
    for (const [i, row] of zoned.slice(1).entries()) {
      const before = utc[i + 1]![1]!;
      expect(before).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(row[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-06:00$/);
      expect(new Date(row[1]!).toISOString()).toBe(before);
      // Only the date column changes.
      expect([...row.slice(0, 1), ...row.slice(2)]).toEqual([...utc[i + 1]!.slice(0, 1), ...utc[i + 1]!.slice(2)]);
    }
  });

  test('export with a tz that is no time zone: 400 naming the parameter by its label, nothing recorded', async () => {
    const count = await api.count('audit_log');
    for (const tz of ['Mexico City', 'America/Nowhere', '+99:00']) {
      const res = await request(app()).get('/api/v5/audit/export').query({ tz }).set(admin).expect(400);
      expect(res.body).toEqual({
        message: 'El parámetro Zona horaria debe ser una zona horaria IANA válida, por ejemplo America/Mexico_City',
        code: 'VALIDATION',
        field: 'tz',
      });
    }
    expect(await api.count('audit_log')).toBe(count);
  });

  test('without the Auditoría path: 403, and nothing is recorded', async () => {
    const count = await api.count('audit_log');
    const soporte = await api.headersOf('soporte@demo.local');
    await request(app()).get('/api/v5/audit').set(soporte).expect(403);
    await request(app()).get('/api/v5/audit/export').set(soporte).expect(403);
    expect(await api.count('audit_log')).toBe(count);
  });

  describe('sign-ins of the embedded endpoint', () => {
    let server: http.Server;
    let base: string;
    beforeAll(async () => {
      server = http.createServer(api.ta.app);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((r) => server.close(r));
    });

    const pool = () => makePool(base, api.ta.config.identity.userPoolId, api.ta.config.identity.clientId);
    const sessions = async () => (await t.db.query<Record<string, unknown>>("SELECT * FROM audit_log WHERE entity = 'session' ORDER BY id")).rows;

    test('a success: who, from where, with the request id; never the password', async () => {
      const before = (await sessions()).length;
      expect((await signIn(pool(), 'admin@demo.local', DEMO_PASSWORD)).kind).toBe('session');
      const rows = await sessions();
      expect(rows).toHaveLength(before + 1);
      expect(rows.at(-1)).toMatchObject({ action: 'sign_in', outcome: 'success', actor_email: 'admin@demo.local', actor_admin_id: 1, detail: null });
      expect(rows.at(-1)!.ip).toMatch(/127\.0\.0\.1/);
      expect(rows.at(-1)!.request_id).toEqual(expect.any(String));
      expect(JSON.stringify(rows)).not.toContain(DEMO_PASSWORD);
      // The same through USER_PASSWORD_AUTH.
      expect((await signIn(pool(), 'soporte@demo.local', DEMO_PASSWORD, 'USER_PASSWORD_AUTH')).kind).toBe('session');
      expect((await sessions()).at(-1)).toMatchObject({ outcome: 'success', actor_email: 'soporte@demo.local', actor_admin_id: 3 });
    });

    test('failures: wrong password, unknown name (as typed), disabled user', async () => {
      await failure(signIn(pool(), 'inventario@demo.local', 'Mala-Clave-2026!'));
      expect((await sessions()).at(-1)).toMatchObject({
        outcome: 'failure',
        actor_email: 'inventario@demo.local',
        actor_admin_id: 2,
        detail: 'NotAuthorizedException: Incorrect username or password.',
      });
      await failure(signIn(pool(), 'Nadie@Demo.local', 'Mala-Clave-2026!', 'USER_PASSWORD_AUTH'));
      expect((await sessions()).at(-1)).toMatchObject({ outcome: 'failure', actor_email: 'Nadie@Demo.local', actor_admin_id: null });
      await api.addAdmin('apagado@demo.local', 3);
      await api.ta.deps.identity!.admin.adminDisableUser('apagado@demo.local');
      expect(await failure(signIn(pool(), 'apagado@demo.local', DEMO_PASSWORD))).toMatchObject({ message: 'User is disabled.' });
      expect((await sessions()).at(-1)).toMatchObject({
        outcome: 'failure',
        actor_email: 'apagado@demo.local',
        detail: 'NotAuthorizedException: User is disabled.',
      });
      const filtered = await list({ entity: 'session', outcome: 'failure' });
      expect(filtered.total).toBe(3);
    });

    test('a first sign-in is recorded when the new password issues the tokens', async () => {
      const created = await request(app())
        .post('/api/v5/admins')
        .set(admin)
        .send({ correo: 'primera@demo.local', nombres: 'Primera', profileId: 3 })
        .expect(201);
      const before = (await sessions()).length;
      const first = await signIn(pool(), 'primera@demo.local', created.body.temporaryPassword as string);
      expect(first.kind).toBe('newPassword');
      expect(await sessions()).toHaveLength(before);
      if (first.kind === 'newPassword') await completeNewPassword(first.user, 'Nueva-Clave-2026!');
      expect((await sessions()).at(-1)).toMatchObject({ outcome: 'success', actor_email: 'primera@demo.local' });
    });

    test('a failing report never changes the sign-in; it is logged', async () => {
      const logs = new LogCapture();
      const { region, userPoolId, clientId } = api.ta.config.identity;
      const identity = await IdentityService.create(t.db, {
        region,
        userPoolId,
        clientId,
        accessTokenTtlSeconds: 3600,
        refreshTokenTtlSeconds: 86400,
        logger: createLogger('info', logs),
        onSignIn: () => {
          throw new Error('audit unavailable');
        },
      });
      const ok = (await identity.handle('InitiateAuth', {
        ClientId: clientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'admin@demo.local', PASSWORD: DEMO_PASSWORD },
      })) as { AuthenticationResult?: unknown };
      expect(ok.AuthenticationResult).toBeDefined();
      await expect(
        identity.handle('InitiateAuth', {
          ClientId: clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: 'admin@demo.local', PASSWORD: 'x' },
        }),
      ).rejects.toMatchObject({ type: 'NotAuthorizedException' });
      expect(logs.raw.filter((l) => l.includes('audit unavailable'))).toHaveLength(2);
    });
  });
});

describe.each(testEngines())('migration 0005 on %s', (engine) => {
  test('an existing installation: the profiles that manage roles get the audit page, the others do not', async () => {
    const t = await createTestDb(engine, { migrate: false });
    try {
      const upTo = migrations.findIndex((m) => m.id === '0005_audit');
      await migrate(t.db, migrations.slice(0, upTo));
      await t.db.query(
        `INSERT INTO profiles (nombre, paths, actions) VALUES
           ('Administrador', '{/admin-settings,/admin-settings/roles}', '{}'), ('Soporte', '{/dashboard}', '{}')`,
      );
      // Up to 0005 itself: later migrations grant later pages (0024 gives the Administrador the credits').
      await migrate(t.db, migrations.slice(0, upTo + 1));
      const rows = await t.db.query<{ nombre: string; paths: string[] }>('SELECT nombre, paths FROM profiles ORDER BY id');
      expect(rows.rows).toEqual([
        { nombre: 'Administrador', paths: ['/admin-settings', '/admin-settings/roles', '/admin-settings/audit'] },
        { nombre: 'Soporte', paths: ['/dashboard'] },
      ]);
    } finally {
      await t.dispose();
    }
  });
});
