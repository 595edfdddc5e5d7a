import { grantActionLabel } from '../../../shared/constants/roleActions';
import { GRANTABLE_PATHS, PATHS } from '../../../shared/constants/routes';
import { MESSAGES } from '../../../shared/messages';
import { ADMIN_API_MESSAGES } from '../../../shared/areaMessages/admin';
import { AUTHZ_MESSAGES } from '../../../shared/areaMessages/authz';
import { GrantsRepository } from '../../auth/grantsRepository';
import type { Queryable } from '../../db/Db';
import { AppError } from '../../errors';

/**
 * Taken first in every transaction that changes administrators or roles: two administrators
 * acting at once cannot both pass a guard (e.g. disable each other, the last role manager).
 */
export async function lockAdministration(tx: Queryable): Promise<void> {
  await new GrantsRepository(tx).lockAdministration();
}

export interface CallerGrants {
  adminId: number;
  profileId: number;
  paths: Set<string>;
  actions: Set<number>;
}

/** The caller's grants as they are now, inside the transaction (after the lock). */
export async function callerGrants(tx: Queryable, adminId: number): Promise<CallerGrants> {
  const r = await new GrantsRepository(tx).ofEnabledAdmin(adminId);
  if (!r) throw new AppError(403, 'FORBIDDEN', MESSAGES.api.forbidden);
  return { adminId, profileId: r.profileId, paths: new Set(r.paths), actions: new Set(r.actions) };
}

export interface Grant {
  paths: readonly string[];
  actions: readonly number[];
}

/** What `wanted` holds that `held` does not. */
export function beyond(wanted: Grant, held: { paths: Set<string>; actions: Set<number> }): Grant {
  return { paths: wanted.paths.filter((p) => !held.paths.has(p)), actions: wanted.actions.filter((a) => !held.actions.has(a)) };
}

export const isEmptyGrant = (g: Grant) => g.paths.length === 0 && g.actions.length === 0;

/** "Roles (/admin-settings/roles), acción Bloquear": a Spanish list of grants for messages (device and role actions alike). */
export function describeGrant(g: Grant): string {
  return [...g.paths, ...g.actions.map((a) => `acción ${grantActionLabel(a)}`)].join(', ');
}

const pathOrder = new Map<string, number>(GRANTABLE_PATHS.map((p, i) => [p, i]));

/** Paths in menu order and actions ascending, each once: how grants are stored. */
export function canonicalGrant(g: Grant): { paths: string[]; actions: number[] } {
  return {
    paths: [...new Set(g.paths)].sort((a, b) => (pathOrder.get(a) ?? 1e9) - (pathOrder.get(b) ?? 1e9)),
    actions: [...new Set(g.actions)].sort((a, b) => a - b),
  };
}

/** Everything enabled administrators hold, leaving out one administrator and/or one role's holders. */
export async function heldByOthers(
  tx: Queryable,
  except: { adminId?: number; profileId?: number },
): Promise<{ paths: Set<string>; actions: Set<number> }> {
  const r = await new GrantsRepository(tx).heldByOthers(except);
  return { paths: new Set(r.paths), actions: new Set(r.actions) };
}

/**
 * The last enabled holder of a path or action keeps it: refuses a change that takes `removed`
 * away when no one in `others` holds it. The Roles page keeps its own message.
 */
export function assertKeptByOthers(removed: Grant, others: { paths: Set<string>; actions: Set<number> }): void {
  const lost = beyond(removed, others);
  if (isEmptyGrant(lost)) return;
  if (lost.paths.includes(PATHS.roles)) throw new AppError(409, 'LAST_ROLE_MANAGER', ADMIN_API_MESSAGES.admins.lastRoleManager);
  throw new AppError(409, 'LAST_HOLDER', AUTHZ_MESSAGES.lastHolder(describeGrant(lost)));
}

/** What `a` grants that `b` does not. */
export function minus(a: Grant, b: Grant): Grant {
  return { paths: a.paths.filter((p) => !b.paths.includes(p)), actions: a.actions.filter((x) => !b.actions.includes(x)) };
}

export const NO_GRANT: Grant = { paths: [], actions: [] };
