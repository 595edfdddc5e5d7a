import type {
  Admin,
  AdminList,
  CreateAdminBody,
  CreatedAdmin,
  ListAdminsQuery,
  ResetPasswordResponse,
  UpdateAdminBody,
} from '../../../shared/contracts/admins';
import { ADMIN_API_MESSAGES as M } from '../../../shared/areaMessages/admin';
import { AUTHZ_MESSAGES } from '../../../shared/areaMessages/authz';
import { record, type AuditActor } from '../../audit/auditRepository';
import { revocationsFor } from '../../auth/sessionRevocations';
import type { Db, Queryable } from '../../db/Db';
import { transaction } from '../../db/transactionScope';
import { AppError } from '../../errors';
import type { IdentityDirectory } from '../../identity/IdentityDirectory';
import { generatePassword } from '../../identity/identityAdmin';
import type { Logger } from '../../logger';
import {
  NO_GRANT,
  assertKeptByOthers,
  beyond,
  callerGrants,
  describeGrant,
  heldByOthers,
  isEmptyGrant,
  lockAdministration,
  minus,
  type CallerGrants,
  type Grant,
} from '../roles/grantChecks';
import { AdminsRepository, type AdminWithGrants } from './adminsRepository';

/** What the audit log keeps of an administrator (never a password). */
const snapshot = (a: Admin) => ({
  id: a.id,
  correo: a.correo,
  nombres: a.nombres,
  apellidos: a.apellidos,
  profileId: a.profileId,
  profileNombre: a.profileNombre,
  enabled: a.enabled,
});

/** The identity user of an administrator: the lower-cased e-mail (as the directory creates it). */
const usernameOf = (a: Admin) => a.correo.toLowerCase();

const notFound = () => new AppError(404, 'ADMIN_NOT_FOUND', M.admins.notFound);
const selfProtected = (message: string) => new AppError(409, 'SELF_PROTECTED', message);

interface Change {
  tx: Queryable;
  repo: AdminsRepository;
  caller: CallerGrants;
}

/**
 * Administrators: the portal record and the identity user change together. The identity call
 * is the last step inside the transaction: when it fails, the row and its audit row roll back.
 * (The embedded endpoint's own statements join the transaction; a Cognito pool is called last,
 * so only a failed commit after a successful call could leave them apart.)
 */
export class AdminsService {
  constructor(
    private readonly db: Db,
    private readonly directory: IdentityDirectory,
    private readonly logger?: Logger,
  ) {}

  list(q: ListAdminsQuery): Promise<AdminList> {
    return new AdminsRepository(this.db).list(q);
  }

  async get(id: number): Promise<Admin> {
    const found = await new AdminsRepository(this.db).find(id);
    if (!found) throw notFound();
    return found.admin;
  }

  private change<T>(actor: AuditActor, fn: (c: Change) => Promise<T>): Promise<T> {
    return transaction(this.db, async (tx) => {
      await lockAdministration(tx);
      const caller = await callerGrants(tx, actor.adminId!);
      return fn({ tx, repo: new AdminsRepository(tx), caller });
    });
  }

  private async target(repo: AdminsRepository, id: number): Promise<AdminWithGrants> {
    const found = await repo.find(id);
    if (!found) throw notFound();
    return found;
  }

  /** The profile to assign: it must exist and hold nothing beyond the caller's own grants. */
  private async assignable(repo: AdminsRepository, caller: CallerGrants, profileId: number) {
    const profile = await repo.profileGrants(profileId);
    if (!profile) throw new AppError(400, 'VALIDATION', M.admins.profileNotFound, 'profileId');
    if (!isEmptyGrant(beyond(profile, caller))) throw new AppError(403, 'ESCALATION', M.admins.profileEscalation);
    return profile;
  }

  /**
   * Nobody acts on an administrator who holds a path or action they do not hold themselves
   * (a lesser administrator cannot demote, disable, delete or hand over a superior).
   */
  private assertNotSuperior(t: AdminWithGrants, caller: CallerGrants, verb: 'modificar' | 'deshabilitar' | 'habilitar' | 'eliminar'): void {
    const more = beyond(t, caller);
    if (!isEmptyGrant(more)) throw new AppError(403, 'ESCALATION', AUTHZ_MESSAGES.adminSuperior(verb, describeGrant(more)));
  }

  /**
   * The last enabled holder of every path and action keeps it: `after` is what the target will
   * hold (nothing when disabled or deleted).
   */
  private async assertKeptAfter(tx: Queryable, t: AdminWithGrants, after: Grant): Promise<void> {
    if (!t.admin.enabled) return;
    const removed = minus(t, after);
    if (isEmptyGrant(removed)) return;
    assertKeptByOthers(removed, await heldByOthers(tx, { adminId: t.admin.id }));
  }

  /**
   * Ends every session of the target for the API at once, also where the identity service's
   * access tokens stay valid until they expire (Cognito).
   */
  private async endSessions(tx: Queryable, t: AdminWithGrants): Promise<void> {
    const sub = t.sub ?? (await this.identity(() => this.directory.getUser(usernameOf(t.admin)), { missingOk: true }))?.attributes.sub;
    if (sub) await revocationsFor(this.db).revoke(tx, { sub });
  }

  /** A directory call, its failures as API errors (the transaction around it rolls back). */
  private async identity<T>(call: () => Promise<T>, opts: { missingOk?: boolean } = {}): Promise<T | undefined> {
    try {
      return await call();
    } catch (err) {
      const name = (err as Error | undefined)?.name;
      if (name === 'UsernameExistsException') throw new AppError(409, 'IDENTITY_USER_EXISTS', M.admins.identityUserExists);
      if (name === 'UserNotFoundException') {
        if (opts.missingOk) return undefined;
        throw new AppError(409, 'IDENTITY_USER_MISSING', M.admins.identityUserMissing);
      }
      this.logger?.error({ err }, 'identity directory call failed');
      throw new AppError(502, 'IDENTITY_UNAVAILABLE', M.admins.identityUnavailable);
    }
  }

  create(actor: AuditActor, body: CreateAdminBody): Promise<CreatedAdmin> {
    return this.change(actor, async ({ tx, repo, caller }) => {
      await this.assignable(repo, caller, body.profileId);
      if (await repo.emailTaken(body.correo)) throw new AppError(409, 'EMAIL_TAKEN', M.admins.emailTaken, 'correo');
      const id = await repo.insert(body);
      const { admin } = (await repo.find(id))!;
      await record(tx, { actor, entity: 'admin', entityId: id, action: 'create', after: snapshot(admin) });
      // Embedded: a password shown once to the creator. Cognito: the pool makes one and e-mails it.
      const created = await this.identity(() =>
        this.directory.createUser({
          email: admin.correo,
          ...(this.directory.kind === 'embedded' ? { temporaryPassword: generatePassword() } : {}),
        }),
      );
      // Bound to this identity user: a token of an earlier user with the same e-mail never applies.
      const sub = created?.user.attributes.sub;
      if (sub) await repo.setSub(id, sub);
      return { ...admin, ...(created?.temporaryPassword ? { temporaryPassword: created.temporaryPassword } : {}) };
    });
  }

  update(actor: AuditActor, id: number, body: UpdateAdminBody): Promise<Admin> {
    return this.change(actor, async ({ tx, repo, caller }) => {
      const t = await this.target(repo, id);
      this.assertNotSuperior(t, caller, 'modificar');
      if (body.profileId !== t.admin.profileId) {
        if (id === caller.adminId) throw selfProtected(M.admins.selfProfile);
        const profile = await this.assignable(repo, caller, body.profileId);
        await this.assertKeptAfter(tx, t, profile);
      }
      const b = t.admin;
      if (b.nombres === body.nombres && b.apellidos === body.apellidos && b.profileId === body.profileId) return b;
      await repo.update(id, body);
      const { admin } = (await repo.find(id))!;
      await record(tx, { actor, entity: 'admin', entityId: id, action: 'update', before: snapshot(b), after: snapshot(admin) });
      return admin;
    });
  }

  /** Disabling also ends the administrator's sessions (the directory revokes them). */
  disable(actor: AuditActor, id: number): Promise<Admin> {
    return this.change(actor, async ({ tx, repo, caller }) => {
      const t = await this.target(repo, id);
      if (id === caller.adminId) throw selfProtected(M.admins.selfDisable);
      this.assertNotSuperior(t, caller, 'deshabilitar');
      await this.assertKeptAfter(tx, t, NO_GRANT);
      let admin = t.admin;
      if (admin.enabled) {
        await repo.setEnabled(id, false);
        admin = (await repo.find(id))!.admin;
        await record(tx, { actor, entity: 'admin', entityId: id, action: 'disable', before: snapshot(t.admin), after: snapshot(admin) });
      }
      await this.endSessions(tx, t);
      // Also when the record was already disabled: the identity user follows the record.
      await this.identity(() => this.directory.disableUser(usernameOf(admin)));
      return admin;
    });
  }

  enable(actor: AuditActor, id: number): Promise<Admin> {
    return this.change(actor, async ({ tx, repo, caller }) => {
      const t = await this.target(repo, id);
      this.assertNotSuperior(t, caller, 'habilitar');
      let admin = t.admin;
      if (!admin.enabled) {
        await repo.setEnabled(id, true);
        admin = (await repo.find(id))!.admin;
        await record(tx, { actor, entity: 'admin', entityId: id, action: 'enable', before: snapshot(t.admin), after: snapshot(admin) });
      }
      await this.identity(() => this.directory.enableUser(usernameOf(admin)));
      return admin;
    });
  }

  remove(actor: AuditActor, id: number): Promise<void> {
    return this.change(actor, async ({ tx, repo, caller }) => {
      const t = await this.target(repo, id);
      if (id === caller.adminId) throw selfProtected(M.admins.selfDelete);
      this.assertNotSuperior(t, caller, 'eliminar');
      await this.assertKeptAfter(tx, t, NO_GRANT);
      await this.endSessions(tx, t);
      await repo.delete(id);
      await record(tx, { actor, entity: 'admin', entityId: id, action: 'delete', before: snapshot(t.admin) });
      // An identity user already gone is what deleting wants.
      await this.identity(() => this.directory.deleteUser(usernameOf(t.admin)), { missingOk: true });
    });
  }

  /**
   * A new temporary password, answered once: the next sign-in asks for a new password, and the
   * current sessions end. Never for oneself (Mi Perfil changes one's own password) nor for an
   * administrator holding more than the caller (that would hand over their access).
   */
  resetPassword(actor: AuditActor, id: number): Promise<ResetPasswordResponse> {
    return this.change(actor, async ({ tx, repo, caller }) => {
      const t = await this.target(repo, id);
      if (id === caller.adminId) throw selfProtected(M.admins.selfReset);
      if (!isEmptyGrant(beyond(t, caller))) throw new AppError(403, 'ESCALATION', M.admins.resetEscalation);
      const temporaryPassword = generatePassword();
      await record(tx, { actor, entity: 'admin', entityId: id, action: 'reset_password' });
      await this.endSessions(tx, t);
      const username = usernameOf(t.admin);
      await this.identity(async () => {
        await this.directory.setPassword(username, temporaryPassword, false);
        await this.directory.signOutEverywhere(username);
      });
      return { temporaryPassword };
    });
  }
}
