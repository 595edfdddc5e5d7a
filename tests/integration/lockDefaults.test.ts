import request from 'supertest';
import { lockDefaultsResponse, type LockDefaults } from '../../shared/contracts/deviceActions';
import type { SettingsSectionAnswer } from '../../shared/contracts/agentSettings';
import { adminApi, type AdminApi } from '../helpers/adminApi';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const URL = '/api/v5/devices/lock-defaults';

describe.each(testEngines())('the lock type the lock dialog proposes (GET /v5/devices/lock-defaults) on %s', (engine) => {
  let t: TestDb;
  let api: AdminApi;
  let admin: Record<string, string>;

  const app = () => api.ta.app;
  const defaults = async (headers = admin): Promise<LockDefaults> =>
    lockDefaultsResponse.parse((await request(app()).get(URL).set(headers).expect(200)).body);
  const lockSection = (type: 'smartphone' | 'tv', groupId?: number) =>
    `/api/v5/agent-settings/${type}/restrictions-lock${groupId === undefined ? '' : `?groupId=${groupId}`}`;
  const section = async (type: 'smartphone' | 'tv', groupId?: number): Promise<SettingsSectionAnswer> =>
    (await request(app()).get(lockSection(type, groupId)).set(admin).expect(200)).body as SettingsSectionAnswer;
  const newGroup = async (name: string): Promise<number> =>
    ((await request(app()).post('/api/v5/groups').set(admin).send({ name }).expect(201)).body as { id: number }).id;
  /** Saves a group's overrides of the lock section (only the keys given). */
  const override = async (type: 'smartphone' | 'tv', groupId: number, values: Record<string, unknown>) => {
    const { version } = await section(type, groupId);
    await request(app()).put(lockSection(type, groupId)).set(admin).send({ version, values }).expect(200);
  };

  beforeAll(async () => {
    t = await createTestDb(engine);
    api = await adminApi(t.db);
    admin = await api.headersOf('admin@demo.local');
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
  });

  test('before any save: the setting\'s default, "PorCredito", for both types, no group listed', async () => {
    expect(await defaults()).toEqual({
      byType: { 1: { global: 'PorCredito', groups: {} }, 2: { global: 'PorCredito', groups: {} } },
    });
  });

  test('the answer follows the saved global value of a type and the groups whose own value differs', async () => {
    // The TV's global lock section, saved with the version the page loaded and all its values.
    const tv = await section('tv');
    expect(tv.values.default_lock_type).toBe('PorCredito');
    const saved = await request(app())
      .put(lockSection('tv'))
      .set(admin)
      .send({ version: tv.version, values: { ...tv.values, default_lock_type: 'SinKiosko' } })
      .expect(200);
    expect((saved.body as SettingsSectionAnswer).values.default_lock_type).toBe('SinKiosko');

    const norte = await newGroup('Norte');
    const sur = await newGroup('Sur');
    const centro = await newGroup('Centro');
    // Smartphones: Norte proposes another type; Sur sets the global one again (no difference);
    // Centro overrides another setting only.
    await override('smartphone', norte, { default_lock_type: 'PorNoConexion' });
    await override('smartphone', sur, { default_lock_type: 'PorCredito' });
    await override('smartphone', centro, { disable_camera: true });
    // TVs: Centro goes back to 'PorCredito', which now differs from the TV's global value.
    await override('tv', centro, { default_lock_type: 'PorCredito' });

    expect(await defaults()).toEqual({
      byType: {
        1: { global: 'PorCredito', groups: { [String(norte)]: 'PorNoConexion' } },
        2: { global: 'SinKiosko', groups: { [String(centro)]: 'PorCredito' } },
      },
    });

    // The TV's global value becomes Centro's: Centro no longer differs.
    const again = await section('tv');
    await request(app())
      .put(lockSection('tv'))
      .set(admin)
      .send({ version: again.version, values: { ...again.values, default_lock_type: 'PorCredito' } })
      .expect(200);
    expect((await defaults()).byType[2]).toEqual({ global: 'PorCredito', groups: {} });

    // A deleted group takes its overrides with it.
    await request(app()).delete(`/api/v5/groups/${norte}`).set(admin).expect(204);
    expect((await defaults()).byType[1]).toEqual({ global: 'PorCredito', groups: {} });
  });

  test('an operator who may lock gets it without the settings pages; a profile without the LOCK action gets 403', async () => {
    // The inventory operator holds every device action but no agent-settings page.
    expect((await defaults(await api.headersOf('inventario@demo.local'))).byType[1].global).toBe('PorCredito');
    // Support sees the devices page but may not lock.
    const res = await request(app())
      .get(URL)
      .set(await api.headersOf('soporte@demo.local'))
      .expect(403);
    expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String) }));
  });
});
