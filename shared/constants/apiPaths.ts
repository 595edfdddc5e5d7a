/**
 * Every path of the portal API, written once (relative to the API base, `PORTAL_API_URL`, which
 * the server mounts at `/api`). The client's endpoints build their URLs from it and server/app.ts
 * mounts each router at its resource's `base`; a sub-path is a builder that carries the Express
 * `pattern` its router declares, so the router and the client name the same route.
 * tests/integration/authorization.test.ts checks that every path here is a route the server serves.
 *
 * PUT and DELETE of one item are the base with the id appended (reference §7: the client's `http`
 * helpers), so they need no builder of their own.
 */

/** A value put in a path segment (encoded). */
export type PathValue = string | number;

/** One value per parameter of an Express pattern: `'/:id/actions/:commandId/cancel'` → `[PathValue, PathValue]`. */
type PatternValues<P extends string> = P extends `${string}:${infer Rest}`
  ? Rest extends `${string}/${infer Tail}`
    ? [PathValue, ...PatternValues<`/${Tail}`>]
    : [PathValue]
  : [];

/** A sub-path of a resource: called with one value per parameter, it answers the full path under the API base. */
export type ApiPath<P extends string> = ((...values: PatternValues<P>) => string) & {
  /** The Express route, relative to the resource's base: `'/:id/history'`. */
  readonly pattern: P;
};

/** Any sub-path, whatever its parameters. */
type AnyApiPath = ((...values: never[]) => string) & { readonly pattern: string };

/** A parameter of a pattern: `:` and a name (a pattern's other segments are literal). */
const PARAM = /:(\w+)/g;

function subPath<const P extends string>(base: string, pattern: P): ApiPath<P> {
  const build = (...values: PathValue[]) => {
    let i = 0;
    return base + pattern.replace(PARAM, () => encodeURIComponent(String(values[i++])));
  };
  return Object.assign(build, { pattern });
}

/** A resource: its base and the builders of its sub-paths (`at(pattern)`). */
function resource<const B extends string, const S extends Record<string, AnyApiPath>>(
  base: B,
  subPaths: (at: <const P extends string>(pattern: P) => ApiPath<P>) => S,
): { readonly base: B } & S {
  return { base, ...subPaths((pattern) => subPath(base, pattern)) };
}

export const API_PATHS = {
  /** The versions (reference §7). */
  portal: resource('/portal', (at) => ({ getVersion: at('/getVersion'), getVersionApp: at('/getVersionApp') })),
  /** The signed-in administrator's own record and session. */
  users: resource('/v5/users', (at) => ({ getUserByEmail: at('/getUserByEmail'), signOut: at('/signOut') })),
  admins: resource('/v5/admins', (at) => ({
    enable: at('/:id/enable'),
    disable: at('/:id/disable'),
    resetPassword: at('/:id/reset-password'),
  })),
  roles: resource('/v5/roles', (at) => ({ duplicate: at('/:id/duplicate') })),
  audit: resource('/v5/audit', (at) => ({ export: at('/export') })),
  /** The device registry and the actions on devices (two routers on one base). */
  devices: resource('/v5/devices', (at) => ({
    one: at('/:id'),
    history: at('/:id/history'),
    enrollments: at('/:id/enrollments'),
    actions: at('/:id/actions'),
    cancelCommand: at('/:id/actions/:commandId/cancel'),
    /** Entregar ahora: ends a scheduled release's cancel window. */
    deliverRelease: at('/:id/release/deliver-now'),
    hold: at('/:id/hold'),
    lockDefaults: at('/lock-defaults'),
    bulkPreview: at('/bulk-actions/preview'),
    bulkActions: at('/bulk-actions'),
    export: at('/export'),
    import: at('/import'),
    importTemplate: at('/import/template'),
    credit: at('/:id/credit'),
  })),
  /** Credits by reference: the portfolio, its summary and export, payments and their reversals. */
  credits: resource('/v5/credits', (at) => ({
    summary: at('/summary'),
    export: at('/export'),
    /** CSV import of schedules or payments (`?kind=`), and its templates. */
    import: at('/import'),
    importTemplate: at('/import/template'),
    /** Releases at payoff waiting for an administrator, and their decisions. */
    approvals: at('/approvals'),
    approve: at('/approvals/:id/approve'),
    reject: at('/approvals/:id/reject'),
    /** Conciliación: devices whose state contradicts their credit, and its CSV. */
    reconciliation: at('/reconciliation'),
    reconciliationExport: at('/reconciliation/export'),
    one: at('/:reference'),
    payments: at('/:reference/payments'),
    reversal: at('/:reference/payments/:externalId/reversal'),
    /** Promesa de pago: POST pauses the collection until a date, DELETE resumes it. */
    pause: at('/:reference/pause'),
  })),
  /** The collection policy (global, or a group's with `?groupId=`): GET and PUT. */
  collectionPolicy: resource('/v5/collection-policy', () => ({})),
  groups: resource('/v5/groups', () => ({})),
  /** Bulk jobs: their progress and per-device results. */
  jobs: resource('/v5/jobs', (at) => ({ one: at('/:id'), results: at('/:id/results'), resultsCsv: at('/:id/results.csv') })),
  /** `type`: a device type's slug (`typeSlug`, 'smartphone' or 'tv'); `section`: a settings section's slug. */
  agentSettings: resource('/v5/agent-settings', (at) => ({
    overview: at('/:type/overview'),
    section: at('/:type/:section'),
    appLock: at('/:type/app-lock'),
    currentLockApp: at('/:type/app-lock/:id/current'),
    logo: at('/smartphone/screen-design/logo'),
    businessApps: at('/smartphone/business-apps'),
  })),
  dashboard: resource('/v5/dashboard', (at) => ({ general: at('/general'), android: at('/android') })),
  enrollmentTokens: resource('/v5/enrollment-tokens', (at) => ({ reenrollments: at('/reenrollments') })),
  apiKeys: resource('/v5/api-keys', (at) => ({ roles: at('/roles'), revoke: at('/:id/revoke') })),
  webhooks: resource('/v5/webhooks', (at) => ({
    deliveries: at('/:id/deliveries'),
    resend: at('/:id/deliveries/:deliveryId/resend'),
  })),
};

/** The base of the integration API (the lenders' systems, API keys): its own routes, not the portal API's. */
export const INTEGRATION_BASE = '/api/integration/v1';
