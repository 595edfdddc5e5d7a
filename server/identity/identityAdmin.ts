import { randomInt, randomUUID } from 'node:crypto';
import { Cognito, checkPasswordPolicy, checkUsername } from './cognitoErrors';
import type { Db } from '../db/Db';
import { IdentityRepository, type IdentityUser, type UserStatus } from './identityRepository';
import { createVerifier } from './srp';

export interface CreatedUser {
  user: IdentityUser;
  temporaryPassword: string;
}

/**
 * The symbols of generated passwords: none of them means anything to bash, zsh or sh where a word
 * starts or inside it, so a printed password pasted unquoted after `DEMO_PASSWORD=` works. Seven,
 * like the symbols they replaced, so the alphabet keeps its 64 characters (6 bits a character).
 */
export const PASSWORD_SYMBOLS = '+,./:@_';

/** A random password that satisfies the policy (temporary passwords, generated demo passwords). */
export function generatePassword(length = 16): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', PASSWORD_SYMBOLS];
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
  private readonly repo: IdentityRepository;

  constructor(
    private readonly db: Db,
    /** The SRP pool name (the part of the pool id after the underscore). */
    private readonly poolName: string,
  ) {
    this.repo = new IdentityRepository(db);
  }

  async adminCreateUser(p: { username: string; attributes?: Record<string, string>; temporaryPassword?: string }): Promise<CreatedUser> {
    const temporaryPassword = checkPasswordPolicy(p.temporaryPassword ?? generatePassword());
    const username = p.username.trim();
    if (!username) throw Cognito.invalidParameter('Username is required');
    checkUsername(username);
    const { salt, verifier } = createVerifier(this.poolName, username, temporaryPassword);
    const inserted = await this.repo.insertUser({
      sub: randomUUID(),
      username,
      attributes: { ...p.attributes },
      salt,
      verifier,
      status: 'FORCE_CHANGE_PASSWORD',
      enabled: true,
    });
    if (!inserted) throw Cognito.usernameExists();
    return { user: (await this.repo.findUser(username))!, temporaryPassword };
  }

  private async mustFind(username: string): Promise<IdentityUser> {
    const user = await this.repo.findUser(username);
    if (!user) throw Cognito.userNotFound();
    return user;
  }

  async adminSetUserPassword(username: string, password: string, permanent: boolean): Promise<void> {
    const user = await this.mustFind(username);
    checkPasswordPolicy(password);
    const { salt, verifier } = createVerifier(this.poolName, user.username, password);
    const status: UserStatus = permanent ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD';
    await this.repo.setPassword(user.sub, salt, verifier, status);
  }

  async adminResetUserPassword(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.db.transaction(async (tx) => {
      const repo = new IdentityRepository(tx);
      await repo.setStatus(user.sub, 'RESET_REQUIRED');
      await repo.revokeAllOf(user.sub);
    });
  }

  async adminDisableUser(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.db.transaction(async (tx) => {
      const repo = new IdentityRepository(tx);
      await repo.setEnabled(user.sub, false);
      await repo.revokeAllOf(user.sub);
    });
  }

  async adminEnableUser(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.repo.setEnabled(user.sub, true);
  }

  async adminDeleteUser(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.repo.deleteUser(user.sub);
  }

  async adminUserGlobalSignOut(username: string): Promise<void> {
    const user = await this.mustFind(username);
    await this.repo.revokeAllOf(user.sub);
  }

  async adminGetUser(username: string): Promise<IdentityUser> {
    return this.mustFind(username);
  }

  listUsers(limit = 60, after?: string): Promise<IdentityUser[]> {
    return this.repo.listUsers(Math.min(Math.max(limit, 1), 60), after);
  }
}
