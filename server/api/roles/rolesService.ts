import { PATHS } from '../../../shared/constants/routes';
import type { DuplicateRoleBody, Role, RoleBody, RoleList } from '../../../shared/contracts/roles';
import { ADMIN_API_MESSAGES as M } from '../../../shared/areaMessages/admin';
import { AUTHZ_MESSAGES } from '../../../shared/areaMessages/authz';
import { INTEGRATION_MESSAGES } from '../../../shared/areaMessages/integration';
import { record, type AuditActor } from '../../audit/auditRepository';
import type { Db, Queryable } from '../../db/Db';
import { transaction } from '../../db/transactionScope';
import { AppError } from '../../errors';
import {
  assertKeptByOthers,
  beyond,
  callerGrants,
  canonicalGrant,
  describeGrant,
  heldByOthers,
  isEmptyGrant,
  lockAdministration,
  minus,
  type CallerGrants,
  type Grant,
} from './grantChecks';
import { ApiKeysRepository } from '../../integration/apiKeysRepository';
import { RolesRepository } from './rolesRepository';

/** What the audit log keeps of a role. */
const snapshot = (r: Pick<Role, 'id' | 'nombre' | 'paths' | 'actions'>) => ({ id: r.id, nombre: r.nombre, paths: r.paths, actions: r.actions });

const notFound = () => new AppError(404, 'ROLE_NOT_FOUND', M.roles.notFound);

/** No privilege escalation: nobody gives a role a path or action they do not hold themselves. */
function assertHeld(added: Grant, caller: CallerGrants): void {
  const missing = beyond(added, caller);
  if (!isEmptyGrant(missing)) throw new AppError(403, 'ESCALATION', M.roles.escalation(describeGrant(missing)));
}

/**
 * Nobody edits or deletes a role that holds a path or action they do not hold themselves:
 * removing a superior's grants is as much a change to a superior as adding to one's own.
 */
function assertNotSuperior(role: Grant, caller: CallerGrants, verb: 'modificar' | 'eliminar'): void {
  const more = beyond(role, caller);
  if (!isEmptyGrant(more)) throw new AppError(403, 'ESCALATION', AUTHZ_MESSAGES.roleSuperior(verb, describeGrant(more)));
}

/** Roles (profiles): list, create, edit, duplicate, delete; every change audited in its transaction. */
export class RolesService {
  constructor(private readonly db: Db) {}

  async list(): Promise<RoleList> {
    const data = await new RolesRepository(this.db).list();
    return { data, total: data.length };
  }

  async get(id: number): Promise<Role> {
    const role = await new RolesRepository(this.db).find(id);
    if (!role) throw notFound();
    return role;
  }

  /** Runs `fn` in a transaction holding the administration lock, with the caller's current grants. */
  private change<T>(actor: AuditActor, fn: (tx: Queryable, repo: RolesRepository, caller: CallerGrants) => Promise<T>): Promise<T> {
    return transaction(this.db, async (tx) => {
      await lockAdministration(tx);
      const caller = await callerGrants(tx, actor.adminId!);
      return fn(tx, new RolesRepository(tx), caller);
    });
  }

  private async assertNameFree(repo: RolesRepository, nombre: string, exceptId?: number): Promise<void> {
    if (await repo.nameTaken(nombre, exceptId)) throw new AppError(409, 'ROLE_NAME_TAKEN', M.roles.nameTaken, 'nombre');
  }

  create(actor: AuditActor, body: RoleBody): Promise<Role> {
    return this.change(actor, async (tx, repo, caller) => {
      const grant = canonicalGrant(body);
      assertHeld(grant, caller);
      await this.assertNameFree(repo, body.nombre);
      const id = await repo.insert({ nombre: body.nombre, ...grant });
      const role = (await repo.find(id))!;
      await record(tx, { actor, entity: 'role', entityId: id, action: 'create', after: snapshot(role) });
      return role;
    });
  }

  update(actor: AuditActor, id: number, body: RoleBody): Promise<Role> {
    return this.change(actor, async (tx, repo, caller) => {
      const before = await repo.find(id);
      if (!before) throw notFound();
      const grant = canonicalGrant(body);
      assertNotSuperior(before, caller, 'modificar');
      assertHeld(grant, caller);
      if (caller.profileId === id && before.paths.includes(PATHS.roles) && !grant.paths.includes(PATHS.roles)) {
        throw new AppError(409, 'SELF_LOCKOUT', M.roles.ownRolesAccess);
      }
      // The last enabled holders of a path or action keep it (when this role's are the last).
      const removed = minus(before, grant);
      if (!isEmptyGrant(removed) && (await repo.hasEnabledHolder(id))) assertKeptByOthers(removed, await heldByOthers(tx, { profileId: id }));
      await this.assertNameFree(repo, body.nombre, id);
      const unchanged =
        before.nombre === body.nombre && JSON.stringify([before.paths, before.actions]) === JSON.stringify([grant.paths, grant.actions]);
      if (unchanged) return before;
      await repo.update(id, { nombre: body.nombre, ...grant });
      const after = (await repo.find(id))!;
      await record(tx, { actor, entity: 'role', entityId: id, action: 'update', before: snapshot(before), after: snapshot(after) });
      return after;
    });
  }

  remove(actor: AuditActor, id: number): Promise<void> {
    return this.change(actor, async (tx, repo, caller) => {
      const before = await repo.find(id);
      if (!before) throw notFound();
      assertNotSuperior(before, caller, 'eliminar');
      if (before.adminCount > 0) throw new AppError(409, 'ROLE_IN_USE', M.roles.inUse(before.adminCount));
      const keys = await new ApiKeysRepository(tx).countUsingRole(id);
      if (keys > 0) throw new AppError(409, 'ROLE_IN_USE_BY_KEYS', INTEGRATION_MESSAGES.apiKeys.roleInUse(keys));
      await repo.delete(id);
      await record(tx, { actor, entity: 'role', entityId: id, action: 'delete', before: snapshot(before) });
    });
  }

  duplicate(actor: AuditActor, id: number, body: DuplicateRoleBody): Promise<Role> {
    return this.change(actor, async (tx, repo, caller) => {
      const source = await repo.find(id);
      if (!source) throw notFound();
      assertHeld(source, caller);
      let nombre = body.nombre;
      if (nombre) await this.assertNameFree(repo, nombre);
      else {
        for (let n = 1; !nombre; n++) {
          const candidate = M.roles.copyOf(source.nombre, n);
          if (!(await repo.nameTaken(candidate))) nombre = candidate;
        }
      }
      const newId = await repo.insert({ nombre, paths: source.paths, actions: source.actions });
      const role = (await repo.find(newId))!;
      await record(tx, {
        actor,
        entity: 'role',
        entityId: newId,
        action: 'duplicate',
        after: snapshot(role),
        detail: `${source.nombre} (${source.id})`,
      });
      return role;
    });
  }
}
