import type { RequestHandler, Router } from 'express';
import type { RoutePath } from '../../shared/constants/routes';
import { grantActionLabel } from '../../shared/constants/roleActions';
import { MESSAGES } from '../../shared/messages';
import { INVENTORY_MESSAGES } from '../../shared/areaMessages/inventory';
import type { Queryable } from '../db/Db';
import { AppError } from '../errors';
import { GrantsRepository } from '../auth/grantsRepository';
import { SessionRevocations, revocationsFor, type RevocationOptions } from '../auth/sessionRevocations';
import type { AuthContext } from './authenticate';

/**
 * What an API route requires. Every route declares one (deny by default: an undeclared route
 * stops the server at start-up). Grants are read from the database on each request, so a
 * change to a profile applies to the next request, whatever the tokens say.
 */
export type Permission =
  /** A live session of an enabled administrator: their own record, the versions. */
  | { kind: 'signedIn' }
  /** The profile grants one of these portal paths (reference §2 route table). */
  | { kind: 'path'; paths: readonly RoutePath[] }
  /** The profile grants one of the paths and this action (a device action, reference §4, or a role action from 100). */
  | { kind: 'action'; paths: readonly RoutePath[]; action: number }
  /**
   * The profile grants one of the paths; the action named in the validated body is checked by
   * the route itself with `assertActionGranted` (device actions and bulk actions).
   */
  | { kind: 'bodyAction'; paths: readonly RoutePath[] }
  /**
   * The profile grants one of the paths; the action of the command the route addresses (a
   * cancellation) is checked by the service once it has read the command.
   */
  | { kind: 'commandAction'; paths: readonly RoutePath[] };

export const signedIn = (): Permission => ({ kind: 'signedIn' });
/** Any of the paths (data several pages show, e.g. the groups). */
export const requirePath = (...paths: [RoutePath, ...RoutePath[]]): Permission => ({ kind: 'path', paths });
export const requireAction = (paths: RoutePath | readonly RoutePath[], action: number): Permission => ({
  kind: 'action',
  paths: typeof paths === 'string' ? [paths] : paths,
  action,
});
export const requireBodyAction = (...paths: [RoutePath, ...RoutePath[]]): Permission => ({ kind: 'bodyAction', paths });
export const requireCommandAction = (...paths: [RoutePath, ...RoutePath[]]): Permission => ({ kind: 'commandAction', paths });

export interface Grants {
  adminId: number;
  paths: Set<string>;
  actions: Set<number>;
}

declare module 'express-serve-static-core' {
  interface Locals {
    grants?: Grants;
  }
}

type GuardHandler = RequestHandler & { permission: Permission };

/** The administrator bound to the caller's identity user, with what their profile grants. */
async function loadGrants(db: Queryable, auth: AuthContext): Promise<(Grants & { enabled: boolean }) | undefined> {
  // Bound by `sub`; a record not yet bound (bootstrap, earlier versions) is found by its
  // e-mail and bound now, unless the sign-in predates the record (a deleted user's token).
  const repo = new GrantsRepository(db);
  const r = await repo.forIdentity(auth);
  if (!r) return undefined;
  if (r.sub === null && !(await repo.bindSub(r.adminId, auth.sub))) return undefined;
  return { adminId: r.adminId, enabled: r.enabled, paths: new Set(r.paths), actions: new Set(r.actions) };
}

export type Guard = (permission: Permission) => GuardHandler;

const forbidden = () => new AppError(403, 'FORBIDDEN', MESSAGES.api.forbidden);

/**
 * The guard of one route: the session must not have ended (sign-out, revocation, a disabled or
 * deleted user: 401), the caller must be an enabled administrator bound to the token's user
 * (403, `signedIn` routes included), and their current grants must hold the permission (403).
 * `opts` gives the guard its own revocation cache (tests); by default it shares the process's.
 */
export function guard(db: Queryable, opts?: RevocationOptions): Guard {
  const revocations = opts ? new SessionRevocations(db, opts) : revocationsFor(db);
  return (permission: Permission): GuardHandler => {
    const handler = (async (_req, res, next) => {
      // An API key's grants are set by its authentication (server/integration/apiKeyAuth.ts).
      if (!res.locals.grants) {
        const auth = res.locals.auth;
        if (!auth) throw forbidden();
        if (await revocations.isRevoked(auth)) throw new AppError(401, 'UNAUTHORIZED', MESSAGES.api.unauthorized);
        const loaded = await loadGrants(db, auth);
        if (!loaded) throw forbidden();
        if (!loaded.enabled) throw new AppError(403, 'USER_DISABLED', MESSAGES.api.userDisabled);
        res.locals.grants = { adminId: loaded.adminId, paths: loaded.paths, actions: loaded.actions };
      }
      const grants = res.locals.grants;
      const allowed =
        permission.kind === 'signedIn' ||
        (permission.paths.some((p) => grants.paths.has(p)) && (permission.kind !== 'action' || grants.actions.has(permission.action)));
      if (!allowed) throw forbidden();
      next();
    }) as GuardHandler;
    handler.permission = permission;
    return handler;
  };
}

/**
 * The second half of a `bodyAction` route: 403 unless the caller's profile grants `action`
 * (the guard already loaded the grants and checked the path).
 */
export function assertActionGranted(res: { locals: { grants?: Grants } }, action: number): void {
  if (!res.locals.grants?.actions.has(action)) {
    throw new AppError(403, 'ACTION_NOT_GRANTED', INVENTORY_MESSAGES.actions.notGranted(grantActionLabel(action)));
  }
}

export interface DeclaredRoute {
  method: string;
  path: string;
  permission?: Permission;
}

interface LayerLike {
  /** A route's layer: its path, its handlers and (undeclared in Express's types) its methods. */
  route?: { path: string; methods?: Record<string, boolean>; stack: { handle: unknown }[] };
  /** A mounted router's layer: the router itself. */
  handle?: unknown;
}
const isRouter = (handle: unknown): handle is { stack: readonly object[] } =>
  typeof handle === 'function' && Array.isArray((handle as { stack?: unknown }).stack);

/**
 * Every route of a router (mounted routers included) with the permission its first handler
 * declares. `mounts` maps routers to the prefix they are mounted at (Express 5 keeps no readable
 * mount path on its layers).
 */
export function listRoutes(router: { stack: readonly object[] }, prefix = '', mounts = new Map<unknown, string>()): DeclaredRoute[] {
  const out: DeclaredRoute[] = [];
  // Express's layers, read as far as listRoutes needs them (its types leave a route's methods out).
  for (const layer of router.stack as readonly LayerLike[]) {
    if (layer.route) {
      const first = layer.route.stack[0]?.handle as Partial<GuardHandler> | undefined;
      for (const method of Object.keys(layer.route.methods ?? {})) {
        out.push({ method: method.toUpperCase(), path: `${prefix}${layer.route.path}`, permission: first?.permission });
      }
    } else if (isRouter(layer.handle)) {
      out.push(...listRoutes(layer.handle, `${prefix}${mounts.get(layer.handle) ?? ''}`, mounts));
    }
  }
  return out;
}

/** Deny by default: a route whose first handler is not a guard stops the server. */
export function assertRoutesDeclared(routes: DeclaredRoute[]): void {
  const missing = routes.filter((r) => !r.permission);
  if (missing.length) {
    throw new Error(`Rutas de la API sin permiso declarado: ${missing.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  }
}

/** Mounts `child` on `parent` at `path`, remembering the prefix for listRoutes. */
export function mount(parent: Router, path: string, child: Router, mounts: Map<unknown, string>): void {
  mounts.set(child, path);
  parent.use(path, child);
}
