/**
 * A lender's side of the integration, from a terminal, against a running portal:
 *
 *   npm run -s integration -- key --name Cobranza [--role Administrador] [--ips 10.0.0.0/8,…]
 *       Signs in as an administrator (--email, default admin@demo.local; --password or
 *       DEMO_PASSWORD), creates an API key with the role and prints only its secret.
 *   npm run integration -- webhook [--listen 4000] [--events device.status_changed,…]
 *       Starts a receiver on 127.0.0.1:<listen>, subscribes it (all events by default), and
 *       prints every delivery whose Standard Webhooks signature verifies; Ctrl-C deletes the
 *       subscription. The portal must allow private targets (WEBHOOK_ALLOW_PRIVATE_TARGETS=true,
 *       which `npm start` sets outside production; never in production).
 *
 * Both take --url (default http://localhost:3000).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_EVENT_TYPES } from '../shared/constants/integration';
import type { ApiKeyCreated, ApiKeyRoles } from '../shared/contracts/apiKeys';
import type { WebhookCreated } from '../shared/contracts/webhooks';
import { discoverPortal, portalCaller, signInPortal, type PortalCall } from '../tools/simulator/portalApi';
import { API_PATHS } from '../shared/constants/apiPaths';

/** Calls the portal API (/api/v5…) as a signed-in administrator. */
export async function signedInCaller(url: string, email: string, password: string): Promise<PortalCall> {
  const where = await discoverPortal(url);
  const session = await signInPortal(where, email, password);
  return portalCaller({ apiUrl: where.apiUrl, headers: () => session.headers() });
}

/** Creates an API key with the named role; answers its secret. */
export async function createKey(call: PortalCall, opts: { name: string; role: string; ips: string[] }): Promise<string> {
  const roles = await call<ApiKeyRoles>('GET', API_PATHS.apiKeys.roles());
  const role = roles.data.find((r) => r.name.toLowerCase() === opts.role.toLowerCase());
  if (!role) throw new Error(`No existe el rol «${opts.role}»: ${roles.data.map((r) => r.name).join(', ')}`);
  const created = await call<ApiKeyCreated>('POST', API_PATHS.apiKeys.base, { name: opts.name, profileId: role.id, allowedIps: opts.ips });
  return created.secret;
}

/** A delivery the receiver accepted: its verified payload and headers. */
export interface Received {
  id: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * A local webhook receiver: answers 204 to deliveries whose signature verifies with `secret`
 * (set once the subscription exists), 401 to others; `onEvent` gets each verified one.
 */
export async function startReceiver(
  port: number,
  onEvent: (r: Received) => void,
): Promise<{ url: string; setSecret(s: string): void; close(): Promise<void> }> {
  let verifier: Webhook | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        if (!verifier) throw new Error('sin secreto');
        const payload = verifier.verify(body, req.headers as Record<string, string>) as Received['payload'];
        onEvent({ id: String(req.headers['webhook-id']), payload });
        res.writeHead(204).end();
      } catch {
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/webhook`,
    setSecret: (s) => {
      verifier = new Webhook(s);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string', default: 'http://localhost:3000' },
      email: { type: 'string', default: 'admin@demo.local' },
      password: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string', default: 'Administrador' },
      ips: { type: 'string' },
      listen: { type: 'string', default: '4000' },
      events: { type: 'string' },
    },
  });
  const password = values.password ?? process.env.DEMO_PASSWORD;
  if (!password) {
    process.stderr.write('Falta la contraseña: --password o DEMO_PASSWORD\n');
    return 2;
  }
  const call = await signedInCaller(values.url, values.email, password);
  if (positionals[0] === 'key') {
    if (!values.name) {
      process.stderr.write('Falta --name\n');
      return 2;
    }
    process.stdout.write(`${await createKey(call, { name: values.name, role: values.role, ips: list(values.ips) })}\n`);
    return 0;
  }
  if (positionals[0] === 'webhook') {
    const receiver = await startReceiver(Number(values.listen), (r) => {
      process.stdout.write(`${new Date().toISOString()} ${r.id} ${r.payload.type} firma verificada ${JSON.stringify(r.payload.data)}\n`);
    });
    const events = values.events ? list(values.events) : WEBHOOK_EVENT_TYPES;
    const created = await call<WebhookCreated>('POST', API_PATHS.webhooks.base, {
      name: `Receptor local ${receiver.url}`,
      url: receiver.url,
      events,
    });
    receiver.setSecret(created.secret);
    process.stderr.write(`Escuchando en ${receiver.url} (suscripción ${created.webhook.id}); Ctrl-C para terminar\n`);
    await new Promise<void>((resolve) => process.once('SIGINT', resolve));
    await call('DELETE', `${API_PATHS.webhooks.base}/${created.webhook.id}`).catch(() => undefined);
    await receiver.close();
    return 0;
  }
  process.stderr.write('Uso: integration key --name <nombre> | integration webhook [--listen <puerto>]\n');
  return 2;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
