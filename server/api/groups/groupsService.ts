import type { Group, GroupBody, GroupList } from '../../../shared/contracts/groups';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { record, type AuditActor } from '../../audit/auditRepository';
import type { Db } from '../../db/Db';
import { transaction } from '../../db/transactionScope';
import { isUniqueViolation } from '../../db/pgErrors';
import { AppError } from '../../errors';
import { GroupsRepository } from './groupsRepository';
import { DeviceRepository } from '../../devices';

/** What the audit log keeps of a group. */
const snapshot = (g: Group) => ({ id: g.id, name: g.name, description: g.description });

const notFound = () => new AppError(404, 'GROUP_NOT_FOUND', M.groups.notFound);
const nameTaken = () => new AppError(409, 'GROUP_NAME_TAKEN', M.groups.nameTaken, 'name');

/** A concurrent request taking the same name (unique index) answers like the check. */
function constraintError(err: unknown): unknown {
  return isUniqueViolation(err) ? nameTaken() : err;
}

/** Device groups with their device counts; every change audited in its transaction. */
export class GroupsService {
  constructor(private readonly db: Db) {}

  async list(): Promise<GroupList> {
    const repo = new GroupsRepository(this.db);
    const [data, ungrouped] = await Promise.all([repo.list(), repo.ungrouped()]);
    return { data, total: data.length, ungrouped };
  }

  async create(actor: AuditActor, body: GroupBody): Promise<Group> {
    try {
      return await transaction(this.db, async (tx) => {
        const repo = new GroupsRepository(tx);
        if (await repo.nameTaken(body.name)) throw nameTaken();
        const id = await repo.insert(body);
        const group = (await repo.find(id))!;
        await record(tx, { actor, entity: 'group', entityId: id, action: 'create', after: snapshot(group) });
        return group;
      });
    } catch (err) {
      throw constraintError(err);
    }
  }

  async update(actor: AuditActor, id: number, body: GroupBody): Promise<Group> {
    try {
      return await transaction(this.db, async (tx) => {
        const repo = new GroupsRepository(tx);
        if (!(await repo.lock(id))) throw notFound();
        const before = (await repo.find(id))!;
        if (await repo.nameTaken(body.name, id)) throw nameTaken();
        if (before.name === body.name && before.description === body.description) return before;
        await repo.update(id, body);
        const after = (await repo.find(id))!;
        await record(tx, { actor, entity: 'group', entityId: id, action: 'update', before: snapshot(before), after: snapshot(after) });
        return after;
      });
    } catch (err) {
      throw constraintError(err);
    }
  }

  /**
   * Deletes a group: refused while it has live devices, unless `moveTo` names another group,
   * in which case they move there first (one transaction).
   */
  async remove(actor: AuditActor, id: number, moveTo: number | undefined): Promise<void> {
    if (moveTo === id) throw new AppError(400, 'GROUP_MOVE_TO_SELF', M.groups.moveToSelf);
    await transaction(this.db, async (tx) => {
      const repo = new GroupsRepository(tx);
      // The group row stays locked: no device can join it until the deletion commits.
      if (!(await repo.lock(id))) throw notFound();
      const before = (await repo.find(id))!;
      let moved = 0;
      if (moveTo !== undefined) {
        if (!(await repo.lock(moveTo))) throw new AppError(400, 'GROUP_MOVE_TO_NOT_FOUND', M.groups.moveToNotFound);
        moved = await new DeviceRepository(tx).moveGroup(id, moveTo);
      } else if (before.deviceCount > 0) {
        throw new AppError(409, 'GROUP_NOT_EMPTY', M.groups.notEmpty(before.deviceCount));
      } else {
        await new DeviceRepository(tx).ungroupDeleted(id);
      }
      await repo.delete(id);
      await record(tx, {
        actor,
        entity: 'group',
        entityId: id,
        action: 'delete',
        before: { ...snapshot(before), deviceCount: before.deviceCount },
        after: moveTo === undefined ? null : { movedTo: moveTo, moved },
      });
    });
  }
}
