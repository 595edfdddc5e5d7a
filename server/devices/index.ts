/**
 * The device domain: a device and its commands. Its rows (one repository per table, one row type
 * each: DeviceRepository and `DeviceRow`, CommandRepository and `CommandRow`, CredentialRepository
 * for the enrollment and agent tokens), the command rules (a command's payload, pending window and
 * audit name; the bulk rules), offline codes, and the services the portal and integration APIs,
 * the bulk jobs and the agent API call. Nothing outside server/devices imports its files but this
 * one (eslint.config.js enforces it). The state machine and the status rules are shared/ (the
 * client reads them too).
 */
export { CommandRepository, isCancellable, toCommand, type CommandRow, type DeliverableRow, type NewCommand } from './commandRepository';
export { CredentialRepository, type EnrollmentTokenRow, type TokenScope } from './credentialRepository';
export {
  DeviceRepository,
  factsOf,
  CHECKIN_READ_BATCH,
  type CheckinKey,
  type CheckinRow,
  type DeviceRuleRow,
  type Reported,
  type SelectionGroup,
} from './deviceRepository';
export {
  IN_FLIGHT_STATUSES,
  SqlWhere,
  creditDevicesSql,
  deviceRow,
  likeEscape,
  inFlightSql,
  machineFactsOf,
  toDevice,
  type DeviceRow,
  type InventorySettings,
  type ListedDeviceRow,
} from './deviceQueries';
export { auditActionName, commandPayload, pendingUntil, refusalMemo, summarize } from './commandRules';
export {
  OFFLINE_ACTIONS,
  OFFLINE_CODE_VALID_HOURS,
  OFFLINE_NONCE_WINDOW,
  issuedCode,
  offlineCode,
  offlineExpiry,
  utcDay,
  verifyOfflineCode,
} from './offlineCodes';
export {
  DeviceActionsService,
  deleteDevices,
  deviceFacts,
  type DeviceActionHooks,
  type ServerAction,
  type ServerActionResult,
} from './deviceActionsService';
export { DevicesService } from './devicesService';
