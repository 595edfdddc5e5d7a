import { DEVICE_ACTIONS } from '../../../shared/constants/deviceActions';
import { GRANTABLE_PATHS } from '../../../shared/constants/routes';
import { MESSAGES } from '../../../shared/messages';
import type { Queryable } from '../../db/Db';
import { AppError } from '../../errors';

/** The path that lets an administrator manage roles: someone enabled must always keep it. */
export const ROLES_PATH = '/admin-settings/roles';

/** Arbitrary constant: serialises changes to administrators and roles (their guards read both). */
const ADMINISTRATION_LOCK = 727_211_002;

/**
 * Taken first in every transaction that changes administrators or roles: two administrators
 * acting at once cannot both pass a guard (e.g. disable each other, the last role manager).
 */
export async function lockAdministration(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [ADMINISTRATION_LOCK]);
}

export interface CallerGrants {
  adminId: number;
  profileId: number;
  paths: Set<string>;
  actions: Set<number>;
}

/** The caller's grants as they are now, inside the transaction (after the lock). */
export async function callerGrants(tx: Queryable, adminId: number): Promise<CallerGrants> {
  const res = await tx.query<{ profile_id: number; paths: string[]; actions: number[] }>(
    `SELECT a.profile_id, p.paths, p.actions FROM admins a JOIN profiles p ON p.id = a.profile_id WHERE a.id = $1 AND a.enabled`,
    [adminId],
  );
  const r = res.rows[0];
  if (!r) throw new AppError(403, 'FORBIDDEN', MESSAGES.api.forbidden);
  return { adminId, profileId: r.profile_id, paths: new Set(r.paths), actions: new Set(r.actions) };
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

/** "Roles (/admin-settings/roles), acción Bloquear": a Spanish list of grants for messages. */
export function describeGrant(g: Grant): string {
  const actionLabel = new Map<number, string>(DEVICE_ACTIONS.map((a) => [a.code, a.label]));
  return [...g.paths, ...g.actions.map((a) => `acción ${actionLabel.get(a) ?? a}`)].join(', ');
}

const pathOrder = new Map(GRANTABLE_PATHS.map((p, i) => [p, i]));

/** Paths in menu order and actions ascending, each once: how grants are stored. */
export function canonicalGrant(g: Grant): { paths: string[]; actions: number[] } {
  return {
    paths: [...new Set(g.paths)].sort((a, b) => (pathOrder.get(a) ?? 1e9) - (pathOrder.get(b) ?? 1e9)),
    actions: [...new Set(g.actions)].sort((a, b) => a - b),
  };
}
