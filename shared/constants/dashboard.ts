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
/** Days back the credit-lock measure looks at: the devices locked Por Crédito on the company's last 30 days (today included). */
export const DASHBOARD_CREDIT_LOCK_DAYS = 30;
/** A device locked Por Crédito counts as unlocked soon when its unlock comes within this many days of the lock. */
export const DASHBOARD_UNLOCK_WITHIN_DAYS = 7;
