import request from 'supertest';
import { ROUTES } from '../../shared/constants/routes';
import { PRODUCT_NAME } from '../../shared/messages';
import { createTestDb, type TestDb } from '../helpers/testDb';
import { buildTestApp } from '../helpers/testApp';

const scriptJson = (html: string, id: string): unknown => {
  const m = html.match(new RegExp(`<script id="${id}" type="application/json">(.*?)</script>`));
  if (!m) throw new Error(`no <script id="${id}">`);
  return JSON.parse(m[1]!);
};

describe('server-side rendering', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('pglite');
  });
  afterAll(async () => {
    await t.dispose();
  });

  test.each(ROUTES.map((r) => [r.path, r.frame]))('%s renders its page with status 200', async (path, frame) => {
    const { app } = await buildTestApp(t.db);
    const res = await request(app).get(path).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain(`<title>${PRODUCT_NAME}</title>`);
    expect(res.text).toMatch(/<html lang="es">/);
    const root = res.text.match(/<div id="root">([\s\S]*)<\/div><script id="portal-config"/)?.[1] ?? '';
    expect(root.length).toBeGreaterThan(100);
    // Signed-in pages render the spinner: the server knows no session (tokens live in the browser).
    if (frame === 'app') expect(root).toMatch(/<div[^>]*role="status"[^>]*>.*Cargando\.\.\./);
    else if (path === '/login') expect(root).toContain('Correo electrónico');
    else expect(root).toContain('Registro de Android Enterprise');
  });

  test('paths outside the route table render the app with status 404', async () => {
    const { app } = await buildTestApp(t.db);
    const res = await request(app).get('/inventory-management/nope?x=1').expect(404);
    expect(res.text).not.toContain('role="status"');
    expect(res.text).toContain('Página no encontrada');
    expect(res.text).toContain(`<title>${PRODUCT_NAME}</title>`);
  });

  test('a route spelled in another case is outside the table: the page says what the status says', async () => {
    const { app } = await buildTestApp(t.db);
    const res = await request(app).get('/LOGIN').expect(404);
    expect(res.text).toContain('Página no encontrada');
    expect(res.text).not.toContain('Correo electrónico');
  });

  test('trailing slashes and query strings keep the route', async () => {
    const { app } = await buildTestApp(t.db);
    const res = await request(app).get('/login/?current_session_expire=1').expect(200);
    expect(res.text).toContain('Iniciar sesión');
  });

  test('the page carries the public config and the preloaded state as JSON', async () => {
    const { app } = await buildTestApp(t.db);
    const res = await request(app).get('/login').expect(200);
    expect(scriptJson(res.text, 'portal-config')).toEqual({
      apiBase: '/api',
      apiSendRefreshToken: true,
      portalVersion: '0.0.0-test',
      cognito: {
        region: 'us-east-1',
        userPoolId: 'us-east-1_LocalPool01',
        clientId: 'localportalclient0000000001',
        endpoint: '/cognito/',
      },
    });
    const state = scriptJson(res.text, 'portal-state') as Record<string, unknown>;
    // A fresh store per request: nobody is signed in on the server; UI preferences stay in the browser.
    expect(state.session).toEqual({ status: 'checking' });
    expect(state.api).toMatchObject({ queries: {}, mutations: {} });
    expect(state).not.toHaveProperty('ui');
  });

  test('with a real Cognito pool the config has no endpoint and the CSP allows the pool', async () => {
    const { app } = await buildTestApp(t.db, {
      env: { IDENTITY_MODE: 'cognito', COGNITO_USER_POOL_ID: 'eu-west-1_AbCdEf123', COGNITO_CLIENT_ID: 'abc123def456' },
    });
    const res = await request(app).get('/login').expect(200);
    expect(scriptJson(res.text, 'portal-config')).toEqual({
      apiBase: '/api',
      apiSendRefreshToken: true,
      portalVersion: '0.0.0-test',
      cognito: { region: 'eu-west-1', userPoolId: 'eu-west-1_AbCdEf123', clientId: 'abc123def456' },
    });
    expect(res.headers['content-security-policy']).toContain("connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com");
  });

  test('JSON in the page escapes <, U+2028 and U+2029', async () => {
    const { app } = await buildTestApp(t.db, { env: { PORTAL_API_URL: '/api</script><script>alert(1)//\u2028\u2029' } });
    const res = await request(app).get('/login').expect(200);
    expect(res.text).not.toContain('</script><script>alert(1)');
    expect(res.text).toContain('\\u003c/script>\\u003cscript>alert(1)//\\u2028\\u2029');
    expect((scriptJson(res.text, 'portal-config') as { apiBase: string }).apiBase).toBe('/api</script><script>alert(1)//\u2028\u2029');
  });

  test('every executable script carries the per-request CSP nonce, new on every response', async () => {
    const { app } = await buildTestApp(t.db);
    const nonces: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/dashboard/general').expect(200);
      const csp = res.headers['content-security-policy'] as string;
      const nonce = csp.match(/script-src 'self' 'nonce-([^']+)'/)?.[1];
      expect(nonce).toBeDefined();
      expect(csp).not.toContain("unsafe-inline';".replace(';', '') + "' 'nonce");
      expect(csp).toMatch(/script-src [^;]*/);
      expect(csp.match(/script-src [^;]*/)![0]).not.toContain('unsafe-inline');
      const scripts = [...res.text.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
      const executable = scripts.filter((attrs) => !attrs.includes('type="application/json"'));
      expect(executable.length).toBeGreaterThan(0);
      for (const attrs of executable) expect(attrs).toContain(`nonce="${nonce}"`);
      nonces.push(nonce!);
    }
    expect(new Set(nonces).size).toBe(3);
  });

  test('a signed-in route links the app entry, its CSS and modulepreloads for its frame and page chunks', async () => {
    const { app } = await buildTestApp(t.db);
    const res = await request(app).get('/inventory-management/devices').expect(200);
    expect(res.text).toMatch(/<script type="module" nonce="[^"]+" src="\/assets\/entry\.client-[A-Z0-9]+\.js"><\/script>/);
    expect(res.text).toMatch(/<link rel="stylesheet" href="\/assets\/index-[A-Z0-9]+\.css">/);
    expect(res.text).toMatch(/<link rel="modulepreload" href="\/assets\/chunks\/DevicesPage-[A-Z0-9]+\.js">/);
    // The signed-in frame is a chunk of its own, preloaded for its pages.
    expect(res.text).toMatch(/<link rel="modulepreload" href="\/assets\/chunks\/AppFrame-[A-Z0-9]+\.js">/);
    expect(res.text).not.toMatch(/entry\.public-|LoginPage-/);
  });

  test.each(['/login', '/login?current_session_expire=1', '/google', '/no-such-page'])(
    "%s links the public pages' own entry and stylesheet, and nothing of the signed-in app",
    async (url) => {
      const { app } = await buildTestApp(t.db);
      const res = await request(app).get(url);
      expect(res.text).toMatch(/<script type="module" nonce="[^"]+" src="\/assets\/entry\.public-[A-Z0-9]+\.js"><\/script>/);
      expect(res.text).toMatch(/<link rel="stylesheet" href="\/assets\/public-[A-Z0-9]+\.css">/);
      expect(res.text).not.toMatch(/entry\.client-|index-[A-Z0-9]+\.css|AppFrame-|LoginPage-/);
      // Its preloads are what its entry imports, no page chunk (its pages are in the entry).
      const preloads = [...res.text.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
      expect(preloads.every((href) => /^\/assets\/chunks\/chunk-[A-Z0-9]+\.js$/.test(href!))).toBe(true);
    },
  );

  test('a sign-in form posted before the scripts ran is sent back to /login unread', async () => {
    const { app } = await buildTestApp(t.db);
    const res = await request(app).post('/login').type('form').send('email=a%40b.c&password=secreto').expect(303);
    expect(res.headers.location).toBe('/login');
  });
});
