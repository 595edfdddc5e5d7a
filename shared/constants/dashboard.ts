/**
 * The dashboards' sizes and timings (GET /v5/dashboard/general|android and the pages). Kept apart
 * from the zod contract (shared/contracts/dashboard.ts re-exports them) so the pages read them
 * without loading zod.
 */

/** Days of the daily charts (today included). */
export const DASHBOARD_DAYS = 30;
/** Groups shown in 'devices per group'. */
export const DASHBOARD_TOP_GROUPS = 10;
/** Models shown in the Android dashboard. */
export const DASHBOARD_TOP_MODELS = 15;
/** Rows of the stuck-command board (its total counts them all). */
export const DASHBOARD_STUCK_ROWS = 20;
/** A command in flight for longer than this is stuck. */
export const DASHBOARD_STUCK_AFTER_HOURS = 24;
/** The pages re-read their numbers this often while auto-refresh is on. */
export const DASHBOARD_REFRESH_MS = 60_000;
