import { DEVICE_TYPES, LOCK_TYPES, type DeviceTypeCode, type LockType } from './domain';

/**
 * The limits, sorts and page sizes the contracts (shared/contracts/) and the pages share, with no
 * zod: a page that shows a limit or offers a sort imports it from here, so its first load does
 * not carry a contract module and zod's classic API with it.
 */

// Devices
export const DEVICE_TYPE_CODES = DEVICE_TYPES.map((t) => t.code) as unknown as readonly [DeviceTypeCode, ...DeviceTypeCode[]];
export const LOCK_TYPE_KEYS = LOCK_TYPES.map((t) => t.key) as unknown as readonly [LockType, ...LockType[]];
export const DEVICE_TEXT_MAX = { serial: 64, brand: 60, model: 80, customerName: 120, creditReference: 64 } as const;

/** The sorts offered: each has an index with every filter (migration 0007), so any page stays fast at 10^6 devices. */
export const DEVICE_SORTS = ['createdAt', 'imei', 'lastSeenAt'] as const;
export type DeviceSort = (typeof DEVICE_SORTS)[number];
export const DEVICES_DEFAULT_PER_PAGE = 25;
export const SEARCH_MAX = 64;
/** The longest agent version a filter names: as long as the agent may report (versionField of the agent contract). */
export const AGENT_VERSION_MAX = 40;

// Device actions and history
export const NOTIFICATION_TITLE_MAX = 100;
export const MESSAGE_MAX = 500;
export const OFFLINE_UNLOCK_MAX_DAYS = 90;
export const RELEASE_CANCEL_HOURS = 48;
export const HISTORY_DEFAULT_PER_PAGE = 20;

// Bulk actions and registration from CSV
export const BULK_MAX_DEVICES = 10_000;
export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;

// Credits
/** The sorts of the portfolio, each read in the order of an index (migration 0024). */
export const CREDIT_SORTS = ['dueDate', 'reference', 'customerName', 'balance', 'createdAt'] as const;
export type CreditSort = (typeof CREDIT_SORTS)[number];
export const CREDITS_DEFAULT_PER_PAGE = 25;
export const RECONCILIATION_DEFAULT_PER_PAGE = 25;
/** What a credit CSV file holds: schedules or payments (POST /v5/credits/import?kind=). */
export const CREDIT_IMPORT_KINDS = ['schedules', 'payments'] as const;
export type CreditImportKind = (typeof CREDIT_IMPORT_KINDS)[number];
