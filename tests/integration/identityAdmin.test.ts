import { Cognito } from '../../server/identity/cognitoErrors';
import { IdentityAdmin, generatePassword } from '../../server/identity/identityAdmin';
import { IdentityService } from '../../server/identity/identityService';
import { verifierMatches } from '../../server/identity/srp';
import { createTestDb, testEngines, type TestDb } from '../helpers/testDb';

const POOL = 'LocalPool01';

test('the identity service reaches the administrator operations only through `admin` (no delegates of its own)', () => {
  const operations = Object.getOwnPropertyNames(IdentityAdmin.prototype).filter((n) => n !== 'constructor');
  expect(operations).toEqual(expect.arrayContaining(['adminCreateUser', 'adminGetUser', 'adminUserGlobalSignOut', 'listUsers']));
  expect(operations.filter((n) => n in IdentityService.prototype)).toEqual([]);
});

describe.each(testEngines())('administrator operations of the embedded user pool, apart from the user protocol (%s)', (engine) => {
  let t: TestDb;
  let admin: IdentityAdmin;
  beforeAll(async () => {
    t = await createTestDb(engine);
    admin = new IdentityAdmin(t.db, POOL);
  });
  afterAll(async () => {
    await t.dispose();
  });

  test('create (temporary password that satisfies the policy), set a permanent password, disable, enable, reset, delete', async () => {
    const created = await admin.adminCreateUser({ username: ' ana@demo.local ', attributes: { email: 'ana@demo.local' } });
    expect(created.user).toMatchObject({ username: 'ana@demo.local', status: 'FORCE_CHANGE_PASSWORD', enabled: true });
    expect(verifierMatches(POOL, 'ana@demo.local', created.temporaryPassword, created.user.salt, created.user.verifier)).toBe(true);
    await expect(admin.adminCreateUser({ username: 'ana@demo.local' })).rejects.toMatchObject({ type: Cognito.usernameExists().type });

    const password = generatePassword();
    await admin.adminSetUserPassword('ana@demo.local', password, true);
    const confirmed = await admin.adminGetUser('ana@demo.local');
    expect(confirmed.status).toBe('CONFIRMED');
    expect(verifierMatches(POOL, 'ana@demo.local', password, confirmed.salt, confirmed.verifier)).toBe(true);

    await admin.adminDisableUser('ana@demo.local');
    expect((await admin.adminGetUser('ana@demo.local')).enabled).toBe(false);
    await admin.adminEnableUser('ana@demo.local');
    expect((await admin.adminGetUser('ana@demo.local')).enabled).toBe(true);
    await admin.adminResetUserPassword('ana@demo.local');
    expect((await admin.adminGetUser('ana@demo.local')).status).toBe('RESET_REQUIRED');

    expect((await admin.listUsers(60)).map((u) => u.username)).toContain('ana@demo.local');
    await admin.adminDeleteUser('ana@demo.local');
    await expect(admin.adminGetUser('ana@demo.local')).rejects.toMatchObject({ type: Cognito.userNotFound().type });
  });

  test('names are checked as the protocol checks them; a weak temporary password is refused', async () => {
    await expect(admin.adminCreateUser({ username: 'a\u0000b@demo.local' })).rejects.toMatchObject({ type: 'InvalidParameterException' });
    await expect(admin.adminCreateUser({ username: 'x'.repeat(129) })).rejects.toMatchObject({ type: 'InvalidParameterException' });
    await expect(admin.adminCreateUser({ username: 'weak@demo.local', temporaryPassword: 'short' })).rejects.toMatchObject({
      type: 'InvalidPasswordException',
    });
  });
});
