import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { DeviceRepository } from '../../server/devices/deviceRepository';
import { AuditRepository } from '../../server/audit/auditRepository';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

interface RawAnswer {
  /** The status line. */
  status: string;
  /** How the connection ended: an error (what a client notices) or a clean close. */
  end: 'error' | 'clean';
  bytes: number;
}

/**
 * One GET over a raw socket, so the test sees exactly what a client or proxy sees: HTTP/1.0
 * (no chunked encoding: the body ends with the connection, as behind a proxy speaking 1.0
 * upstream) or HTTP/1.1, plain or gzip.
 */
function rawGet(port: number, path: string, headers: Record<string, string>, version: '1.0' | '1.1'): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    ends.client = socket;
    ends.server = undefined;
    const chunks: Buffer[] = [];
    let end: RawAnswer['end'] = 'clean';
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => (end = 'error'));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ status: text.slice(0, text.indexOf('\r\n')), end, bytes: text.length });
    });
    const lines = [`GET ${path} HTTP/${version}`, 'Host: 127.0.0.1', 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

/** Both ends of the connection of the request under test. */
const ends: { client?: net.Socket; server?: net.Socket } = {};

/**
 * The next query fails, once the client has read every byte sent so far. (A reset that reaches
 * this in-process client in the same poll as unread bytes is reported by libuv as a plain end
 * of stream; curl, proxies and browsers see the reset either way.)
 */
async function dbFails(): Promise<never> {
  const { client, server } = ends;
  while (!client || !server || server.writableLength > 0 || client.bytesRead < server.bytesWritten) {
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('conexión con la base de datos perdida');
}

const TRANSPORTS = [
  { version: '1.0', encoding: 'identity' },
  { version: '1.1', encoding: 'identity' },
  { version: '1.1', encoding: 'gzip' },
] as const;

describe.each(testEngines())('a CSV export that fails after its first bytes, on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
    await t.db.query(
      "INSERT INTO audit_log (entity, action, entity_id, detail) SELECT 'bulk', 'row', g::text, repeat('x', 200) FROM generate_series(1, 500) g",
    );
    server = http.createServer(api.ta.app);
    server.on('connection', (socket: net.Socket) => (ends.server = socket));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await t.dispose();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  test.each(TRANSPORTS)('audit log, HTTP/$version $encoding: the connection is reset, never closed as if complete', async ({ version, encoding }) => {
    // Two batches of real rows, then the database fails.
    const real = AuditRepository.prototype.batches;
    jest.spyOn(AuditRepository.prototype, 'batches').mockImplementation(async function* (this: AuditRepository, filters, upToId) {
      let n = 0;
      for await (const batch of real.call(this, filters, upToId, 100)) {
        yield batch;
        if (++n === 2) await dbFails();
      }
    });
    const answer = await rawGet(port, '/api/v5/audit/export?entity=bulk', { ...admin, 'Accept-Encoding': encoding }, version);
    expect(answer.status).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.bytes).toBeGreaterThan(0);
    expect(answer.end).toBe('error');
    expect(api.ta.logs.raw.join('\n')).toMatch(/audit export interrupted/);
  });

  test.each(TRANSPORTS)('devices, HTTP/$version $encoding: the connection is reset, never closed as if complete', async ({ version, encoding }) => {
    // The header line is out; the first batch query fails.
    jest.spyOn(DeviceRepository.prototype, 'exportCsvBatch').mockImplementation(dbFails);
    const answer = await rawGet(port, '/api/v5/devices/export', { ...admin, 'Accept-Encoding': encoding }, version);
    // Compressed, the header line may still sit in the zlib buffer: then not even the status is out.
    expect(answer.status).toMatch(encoding === 'gzip' ? /^(HTTP\/1\.1 200 OK)?$/ : /^HTTP\/1\.1 200/);
    expect(answer.end).toBe('error');
    expect(api.ta.logs.raw.join('\n')).toMatch(/device export interrupted/);
  });

  test('a complete export still ends cleanly on every transport', async () => {
    for (const { version, encoding } of TRANSPORTS) {
      const answer = await rawGet(port, '/api/v5/audit/export?entity=bulk', { ...admin, 'Accept-Encoding': encoding }, version);
      expect(answer).toMatchObject({ end: 'clean' });
      expect(answer.status).toMatch(/^HTTP\/1\.1 200/);
    }
  });
});
