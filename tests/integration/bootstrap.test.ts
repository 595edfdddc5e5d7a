import { ALL_ROLE_ACTION_CODES } from '../../shared/constants/roleActions';
import { GRANTABLE_PATHS } from '../../shared/constants/routes';
import { bootstrap, bootstrapBanner } from '../../server/db/bootstrap';
import { createIdentity } from '../../server/identity/createIdentity';
import { createLogger } from '../../server/logger';
import { testConfig } from '../helpers/testApp';
import { createTestDb, type TestDb } from '../helpers/testDb';

const silent = createLogger('silent');

describe('first start', () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb('pglite');
  });
  afterEach(async () => {
    await t.dispose();
  });

  const admins = async () =>
    (
      await t.db.query<{ correo: string; nombre: string; paths: string[]; actions: number[] }>(
        'SELECT a.correo, p.nombre, p.paths, p.actions FROM admins a JOIN profiles p ON p.id = a.profile_id ORDER BY a.id',
      )
    ).rows;

  test('embedded: Administrador with every path and action, the demo profiles, identity users; once only', async () => {
    const config = testConfig();
    const { identity } = await createIdentity(config, t.db, silent);
    const result = await bootstrap(t.db, config, identity);
    expect(result).toMatchObject({ created: true, generated: true, accounts: ['admin@demo.local', 'inventario@demo.local', 'soporte@demo.local'] });
    expect(result.password).toMatch(/^.{16}$/);
    const rows = await admins();
    expect(rows.map((r) => [r.correo, r.nombre])).toEqual([
      ['admin@demo.local', 'Administrador'],
      ['inventario@demo.local', 'Operador de inventario'],
      ['soporte@demo.local', 'Soporte'],
    ]);
    expect([...rows[0]!.paths].sort()).toEqual([...GRANTABLE_PATHS].sort());
    expect(rows[0]!.actions).toEqual([...ALL_ROLE_ACTION_CODES]);
    expect(rows[1]!.paths.every((p) => p.startsWith('/inventory-management'))).toBe(true);
    expect(rows[2]!.actions).toEqual([7, 5]);
    for (const correo of result.accounts) {
      expect(await identity!.admin.adminGetUser(correo)).toMatchObject({ status: 'CONFIRMED', enabled: true });
    }
    expect(bootstrapBanner(result, 'http://localhost:3000')).toContain(`Contraseña: ${result.password}   (generada`);

    expect(await bootstrap(t.db, config, identity)).toMatchObject({ created: false });
    expect(await admins()).toHaveLength(3);
  });

  test('BOOTSTRAP_ADMIN_EMAIL/PASSWORD and SEED_DEMO=false: one administrator with the chosen password', async () => {
    const config = testConfig({ BOOTSTRAP_ADMIN_EMAIL: 'jefa@empresa.mx', BOOTSTRAP_ADMIN_PASSWORD: 'Jefa-Clave-2026!', SEED_DEMO: 'false' });
    const { identity } = await createIdentity(config, t.db, silent);
    const result = await bootstrap(t.db, config, identity);
    expect(result).toMatchObject({ created: true, generated: false, passwordFrom: 'BOOTSTRAP_ADMIN_PASSWORD', accounts: ['jefa@empresa.mx'] });
    expect((await admins()).map((r) => r.correo)).toEqual(['jefa@empresa.mx']);
    expect(bootstrapBanner(result, 'http://x')).not.toContain('generada');
    expect(await identity!.admin.adminGetUser('jefa@empresa.mx')).toMatchObject({ status: 'CONFIRMED' });
  });

  test.each([
    ['DEMO_PASSWORD in development', { DEMO_PASSWORD: 'Demo-Elegida-2026!' }, 'DEMO_PASSWORD', 'Demo-Elegida-2026!'],
    [
      'BOOTSTRAP_ADMIN_PASSWORD in production',
      { NODE_ENV: 'production', IDENTITY_MODE: 'embedded', BOOTSTRAP_ADMIN_PASSWORD: 'Una-Clave-Propia-77' },
      'BOOTSTRAP_ADMIN_PASSWORD',
      'Una-Clave-Propia-77',
    ],
  ])('a password chosen in the environment (%s) is never printed nor kept in the result', async (_label, env, variable, secret) => {
    const config = testConfig(env);
    const { identity } = await createIdentity(config, t.db, silent);
    const result = await bootstrap(t.db, config, identity);
    expect(JSON.stringify(result)).not.toContain(secret);
    const banner = bootstrapBanner(result, 'http://x');
    expect(banner).not.toContain(secret);
    expect(banner).toContain(`Contraseña: la de ${variable} (no se muestra)`);
    expect(banner).toContain(result.accounts[0]);
  });

  test('Cognito mode: the portal record of an existing pool user, no identity user, no demo data', async () => {
    const env = { NODE_ENV: 'production', COGNITO_USER_POOL_ID: 'us-east-1_Prod01', COGNITO_CLIENT_ID: 'prodclient' };
    expect(await bootstrap(t.db, testConfig(env), undefined)).toMatchObject({ created: false });
    expect(await admins()).toHaveLength(0);
    const result = await bootstrap(t.db, testConfig({ ...env, BOOTSTRAP_ADMIN_EMAIL: 'ops@empresa.mx' }), undefined);
    expect(result).toMatchObject({ created: true, accounts: ['ops@empresa.mx'], password: undefined });
    expect((await admins()).map((r) => [r.correo, r.nombre])).toEqual([['ops@empresa.mx', 'Administrador']]);
    expect(bootstrapBanner(result, 'http://x')).toContain('usuario existente del pool de Cognito');
  });

  test('production with the embedded identity never creates demo accounts', async () => {
    const config = testConfig({ NODE_ENV: 'production', IDENTITY_MODE: 'embedded' });
    const { identity } = await createIdentity(config, t.db, silent);
    const result = await bootstrap(t.db, config, identity);
    expect(result.accounts).toEqual(['admin@demo.local']);
    expect(result.generated).toBe(true);
  });
});
