import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { OPENAPI_DOCUMENT_PATH } from '../constants/apiReferenceLabels';
import { LOCK_TYPES } from '../constants/domain';
import { WEBHOOK_EVENTS } from '../constants/integration';
import { INTEGRATION_BASE } from '../constants/apiPaths';
import { INTEGRATION_ROUTES, type IntegrationRoute } from './integration';
import { openApiDocument } from './openapi';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  $ref?: string;
}
interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: Schema }>; headers?: Record<string, unknown> }>;
}
interface Doc {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: {
    securitySchemes: Record<string, { type: string; scheme: string }>;
    responses: Record<string, unknown>;
    schemas: Record<string, Schema>;
  };
}

const doc = openApiDocument() as Doc;

/**
 * Validates a document with @seriousme/openapi-schema-validator in a node process of its own: the
 * validator is an ES module that reads its schemas through import.meta.url, which the tests'
 * CommonJS transform cannot load.
 */
function validate(document: unknown): { result: unknown; version: string } {
  const script = [
    "import { Validator } from '@seriousme/openapi-schema-validator';",
    "let text = ''; for await (const chunk of process.stdin) text += chunk;",
    'const validator = new Validator();',
    'const result = await validator.validate(JSON.parse(text));',
    'process.stdout.write(JSON.stringify({ result, version: validator.version }));',
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: path.join(__dirname, '..', '..'),
    input: JSON.stringify(document),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`the validator failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { result: unknown; version: string };
}
const op = (path: string, method: string): Operation => doc.paths[path]![method]!;
const bodyOf = (o: Operation): Schema => o.requestBody!.content['application/json']!.schema;

describe('the OpenAPI document of the integration API', () => {
  test('is a valid OpenAPI 3.1 document', () => {
    expect(validate(doc)).toEqual({ result: { valid: true }, version: '3.1' });
    expect(doc.openapi).toBe('3.1.0');
  });

  test('the validator refuses a document that breaks the OpenAPI specification (the check can fail)', () => {
    const broken = { ...doc, paths: { '/commands': { post: { operationId: 'x', parameters: [{ name: 'id', schema: { type: 'string' } }] } } } };
    expect(validate(broken).result).toMatchObject({ valid: false });
  });

  test('is computed once, and served where the portal page fetches it', () => {
    expect(openApiDocument()).toBe(doc);
    expect(doc.servers).toEqual([expect.objectContaining({ url: INTEGRATION_BASE })]);
    expect((openApiDocument({ serverUrl: 'https://portal.example.com/api/integration/v1' }) as Doc).servers[0]!.url).toBe(
      'https://portal.example.com/api/integration/v1',
    );
    expect(OPENAPI_DOCUMENT_PATH).toBe(`${INTEGRATION_BASE}/openapi.json`);
  });

  test('says how to authenticate, the idempotency, the rate limit and the error body', () => {
    expect(doc.info.title).toBe('Macrolock — API de integración');
    expect(doc.components.securitySchemes).toEqual({ apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    for (const text of ['Authorization: Bearer', 'Idempotency-Key', 'Idempotent-Replayed: true', '409', '429', 'Retry-After', '`code`']) {
      expect(doc.info.description).toContain(text);
    }
    expect(doc.components.schemas.Error).toMatchObject({ required: expect.arrayContaining(['code', 'message']) });
    expect(Object.keys(doc.components.schemas.Error!.properties!).sort()).toEqual(['code', 'field', 'message']);
  });

  test('describes exactly the routes of INTEGRATION_ROUTES, with their parameters and responses', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, o]) => `${method} ${path} ${o.operationId}`),
    );
    expect(operations.sort()).toEqual(INTEGRATION_ROUTES.map((r) => `${r.method} ${r.path} ${r.operationId}`).sort());
    for (const route of INTEGRATION_ROUTES) {
      const o = op(route.path, route.method);
      const params = o.parameters ?? [];
      const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(params.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(pathParams);
      expect(params.filter((p) => p.in === 'path').every((p) => p.required)).toBe(true);
      const idempotent = 'idempotent' in route && route.idempotent === true;
      expect({ id: route.operationId, idempotencyKey: params.some((p) => p.in === 'header' && p.name === 'Idempotency-Key') }).toEqual({
        id: route.operationId,
        idempotencyKey: idempotent,
      });
      expect(o.requestBody !== undefined).toBe('body' in route);
      const errors = 'errors' in route ? route.errors : [];
      const declared: IntegrationRoute = route;
      const alternate = declared.alternate ? [String(declared.alternate.status)] : [];
      expect(Object.keys(o.responses).sort()).toEqual(
        [String(route.success.status), ...alternate, ...['400', '401', '403', '429'], ...errors.map(String)].sort(),
      );
      expect(o.responses[String(route.success.status)]!.content!['application/json']!.schema.type).toBe('object');
      for (const status of ['400', '401', '403', '429']) expect(o.responses[status]).toEqual({ $ref: `#/components/responses/Error${status}` });
    }
    expect(doc.components.responses.Error429).toMatchObject({ headers: { 'Retry-After': expect.anything() } });
  });

  test('query parameters come from the zod schemas: paging as integers with their bounds, lookup by IMEI or credit reference', () => {
    const results = op('/jobs/{id}/results', 'get').parameters!;
    expect(results.find((p) => p.name === 'perPage')).toEqual({
      name: 'perPage',
      in: 'query',
      required: false,
      description: expect.any(String),
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 },
    });
    expect(results.find((p) => p.name === 'id')!.schema).toEqual({ type: 'integer', minimum: 1 });
    expect(
      op('/devices', 'get')
        .parameters!.map((p) => `${p.in}:${p.name}:${p.required}`)
        .sort(),
    ).toEqual(['query:creditReference:false', 'query:imei:false']);
  });

  test('the command body requires device and payload; the device is one of IMEI or credit reference; the lock lists its lock types', () => {
    const body = bodyOf(op('/commands', 'post'));
    expect(body.required!.sort()).toEqual(['device', 'payload']);
    const device = body.properties!.device!;
    expect(device.oneOf).toEqual([{ required: ['imei'] }, { required: ['creditReference'] }]);
    expect(device.properties!.imei).toMatchObject({ type: 'string', pattern: '^\\d{15}$' });
    const lock = body.properties!.payload!.oneOf!.find((v) => v.properties?.action?.const === 0)!;
    expect(lock.required).toEqual(expect.arrayContaining(['action', 'lockType']));
    expect(lock.properties!.lockType!.enum).toEqual(LOCK_TYPES.map((t) => t.key));
    // HISTORY (7) is not an action a client can request.
    expect(body.properties!.payload!.oneOf!.map((v) => v.properties!.action!.const)).not.toContain(7);
    const unlock = body.properties!.payload!.oneOf!.find((v) => v.properties?.action?.const === 1)!;
    expect(unlock.properties!.until).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
  });

  test('a registration body: IMEI pattern, optional texts may be null; a bulk body names IMEIs or credit references', () => {
    const device = bodyOf(op('/devices', 'post'));
    expect(device.required!.sort()).toEqual(['deviceType', 'imei']);
    expect(device.properties!.imei).toMatchObject({ type: 'string', pattern: '^\\d{15}$' });
    expect(device.properties!.creditReference).toMatchObject({ type: ['string', 'null'], maxLength: 64 });
    const batch = bodyOf(op('/devices/batch', 'post'));
    expect(batch.properties!.devices).toMatchObject({ type: 'array', items: { required: ['imei', 'deviceType'] } });
    const bulk = bodyOf(op('/jobs', 'post'));
    expect(bulk.oneOf).toEqual([{ required: ['imeis'] }, { required: ['creditReferences'] }]);
    expect(bulk.properties!.imeis!.items).toMatchObject({ pattern: '^\\d{15}$' });
  });

  test('responses come from the output schemas: a device has its status codes, dates are date-time strings', () => {
    const device = op('/devices', 'post').responses['201']!.content!['application/json']!.schema;
    expect(device.properties!.status).toMatchObject({ type: 'integer', enum: expect.arrayContaining([1, 3, 25]) });
    expect(device.properties!.deviceType).toMatchObject({ type: 'integer', enum: [1, 2] });
    expect(device.properties!.createdAt).toEqual({ type: 'string', format: 'date-time' });
    const created = op('/commands', 'post').responses['201']!;
    expect(created.headers).toHaveProperty('Idempotent-Replayed');
  });

  test('the webhooks section has every event type with its payload and the signature headers', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(WEBHOOK_EVENTS.map((e) => e.type).sort());
    for (const event of WEBHOOK_EVENTS) {
      const post = doc.webhooks[event.type]!.post;
      expect(post.parameters!.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
        'header:webhook-id:true',
        'header:webhook-timestamp:true',
        'header:webhook-signature:true',
      ]);
      const payload = bodyOf(post);
      expect(payload.required).toEqual(['type', 'timestamp', 'data']);
      expect(payload.properties!.type).toMatchObject({ const: event.type });
      expect(payload.properties!.data!.type).toBe('object');
    }
    expect(Object.keys(bodyOf(doc.webhooks['device.status_changed']!.post).properties!.data!.properties!)).toEqual(
      expect.arrayContaining(['deviceId', 'imei', 'creditReference', 'previousStatus', 'status', 'lockType', 'deleted']),
    );
  });
});
