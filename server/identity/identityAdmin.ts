import { randomInt, randomUUID } from 'node:crypto';
import { Cognito, checkPasswordPolicy, checkUsername } from './cognitoErrors';
import type { IdentityStore, IdentityUser, UserStatus } from './identityStore';
import { createVerifier } from './srp';

export interface CreatedUser {
  user: IdentityUser;
  temporaryPassword: string;
}

/** A random password that satisfies the policy (temporary passwords, generated demo passwords). */
export function generatePassword(length = 16): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#%+-=?@'];
  const all = sets.join('');
  const chars = sets.map((s) => s[randomInt(s.length)]!);
  while (chars.length < length) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/**
 * The administrator operations of the embedded user pool (Cognito's Admin* calls): in-process,
 * or over HTTP only with a SigV4 signature (adminProtocol.ts). The user protocol (sign-in,
 * tokens, passwords) is identityService.ts.
 */
export class IdentityAdmin {
  constructor(
    private readonly store: IdentityStore,
    /** The SRP pool name (the part of the pool id after the underscore). */
    private readonly poolName: string,
  ) {}

  async adminCreateUser(p: { username: string; attributes?: Record<string, string>; temporaryPassword?: string }): Promise<CreatedUser> {
    const temporaryPassword = checkPasswordPolicy(p.temporaryPassword ?? generatePassword());
    const username = p.username.trim();
    if (!username) throw Cognito.invalidParameter('Username is required');
    checkUsername(username);
    const { salt, verifier } = createVerifier(this.poolName, username, temporaryPassword);
    const inserted = await this.store.insertUser({
      sub: randomUUID(),
      username,
      attributes: { ...p.attributes },
      salt,
      verifier,
      status: 'FORCE_CHANGE_PASSWORD',
      enabled: true,
    });
    if (!inserted) throw Cognito.usernameExists();
    return { user: (await this.store.findUser(username))!, temporaryPassword };
  }

  private async mustFind(username: string): Promise<IdentityUser> {
    const user = await this.store.findUser(username);
    if (!user) throw Cognito.userNotFound();
    return user;
  }

  async adminSetUserPassword(username: string, password: string, permanent: boolean): Promise<void> {
    const user = await this.mustFind(username);
    checkPasswordPolicy(password);
    const { salt, verifier } = createVerifier(this.poolName, user.username, password);
    const status: UserStatus = permanent ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD';
    await this.store.setPassword(user.sub, salt, verifier, status);
  }

  async adminResetUserPassword(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.store.transaction(async (tx) => {
      await this.store.setStatus(user.sub, 'RESET_REQUIRED', tx);
      await this.store.revokeAllOf(user.sub, tx);
    });
  }

  async adminDisableUser(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.store.transaction(async (tx) => {
      await this.store.setEnabled(user.sub, false, tx);
      await this.store.revokeAllOf(user.sub, tx);
    });
  }

  async adminEnableUser(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.store.setEnabled(user.sub, true);
  }

  async adminDeleteUser(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.store.deleteUser(user.sub);
  }

  async adminUserGlobalSignOut(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.store.revokeAllOf(user.sub);
  }

  async adminGetUser(username: string): Promise<IdentityUser> {
    return this.mustFind(username);
  }

  listUsers(limit = 60, after?: string): Promise<IdentityUser[]> {
    return this.store.listUsers(Math.min(Math.max(limit, 1), 60), after);
  }
}
