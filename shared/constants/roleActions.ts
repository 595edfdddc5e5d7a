/**
 * What a role grants besides pages: the device actions (deviceActions.ts, reference §4) and the
 * role actions that act on no device (registering payments, pausing collection, editing the collection policy). Role
 * actions are numbered from 100 so their codes never meet a device action's; a role stores both
 * kinds in one list of codes, and the guards check either kind the same way.
 */
import { ALL_DEVICE_ACTION_CODES, DEVICE_ACTIONS } from './deviceActions';

/** The role actions that are not device actions, with their Spanish labels. */
export const ROLE_ACTIONS = [
  { code: 100, key: 'REGISTER_PAYMENTS', label: 'Registrar y revertir pagos' },
  { code: 101, key: 'PAUSE_COLLECTION', label: 'Pausar cobranza' },
  { code: 102, key: 'EDIT_COLLECTION_POLICY', label: 'Editar política de cobranza' },
] as const;

export type RoleActionKey = (typeof ROLE_ACTIONS)[number]['key'];

/** code by key, e.g. ROLE_ACTION.REGISTER_PAYMENTS === 100 */
export const ROLE_ACTION = Object.fromEntries(ROLE_ACTIONS.map((a) => [a.key, a.code])) as {
  [K in RoleActionKey]: Extract<(typeof ROLE_ACTIONS)[number], { key: K }>['code'];
};

/** Every code a role may hold: the device actions, then the role actions. */
export const ALL_ROLE_ACTION_CODES: readonly number[] = [...ALL_DEVICE_ACTION_CODES, ...ROLE_ACTIONS.map((a) => a.code)];

/** The Spanish label of any code a role may hold (the code itself when unknown). */
export function grantActionLabel(code: number): string {
  return [...DEVICE_ACTIONS, ...ROLE_ACTIONS].find((a) => a.code === code)?.label ?? String(code);
}
