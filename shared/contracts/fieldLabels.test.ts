import * as z from 'zod';
import { sectionsOf, typeSlug } from '../agentSettings';
import { AGENT_MESSAGES } from '../areaMessages/agent';
import { ADMIN_API_MESSAGES } from '../areaMessages/admin';
import { AUTHZ_MESSAGES } from '../areaMessages/authz';
import { INVENTORY_MESSAGES } from '../areaMessages/inventory';
import * as account from './account';
import * as admins from './admins';
import * as agent from './agent';
import * as agentSettings from './agentSettings';
import * as audit from './audit';
import * as creditImport from './creditImport';
import * as credits from './credits';
import * as deviceActions from './deviceActions';
import * as deviceImport from './deviceImport';
import * as devices from './devices';
import * as enrollment from './enrollment';
import * as fields from './fields';
import * as groups from './groups';
import * as jobs from './jobs';
import * as roles from './roles';
import * as users from './users';

/**
 * Every validation message names the field by its Spanish label ('El campo Nombre …',
 * 'El parámetro Página …'), never by its path in the body ('name', 'profileId', 'sim.iccid').
 */

const MODULES = {
  account,
  admins,
  agent,
  agentSettings,
  audit,
  creditImport,
  credits,
  deviceActions,
  deviceImport,
  devices,
  enrollment,
  fields,
  groups,
  jobs,
  roles,
  users,
};

/** The request schemas of a module: its zod exports, the answers (…Response, agentCommand) and the webhooks' payloads (…Event) left out. */
function requestSchemas(): [string, z.ZodType][] {
  return Object.entries(MODULES)
    .flatMap(([module, exports]) =>
      Object.entries(exports as Record<string, unknown>)
        .filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType)
        .filter(([name]) => !/(Response|Event)$/.test(name) && name !== 'agentCommand')
        .map(([name, schema]): [string, z.ZodType] => [`${module}.${name}`, schema]),
    )
    .concat(settingsBodies());
}

/** The agent settings' PUT bodies are built per device type and section: every one of them. */
function settingsBodies(): [string, z.ZodType][] {
  return ([1, 2] as const).flatMap((t) =>
    sectionsOf(t).map((s): [string, z.ZodType] => [`agentSettings.settingsBody(${typeSlug(t)}, ${s.key})`, agentSettings.settingsBody(t, s.key)]),
  );
}

const LONG = 'x'.repeat(5_000);
/** Values wrong for some field or other: wrong types, empty, too long, control characters, out of range. */
const BAD: unknown[] = [
  null,
  '',
  '   ',
  'x',
  'abc',
  '0',
  '-1',
  '1.5',
  '99999999999',
  LONG,
  'a\u0000b',
  'no-es-correo',
  '9999-12-31',
  '1999-12-31',
  '2000-01-01T00:00:00Z',
  '2024-01-01T10:00:00',
  0,
  -1,
  1.5,
  3e9,
  99,
  true,
  [],
  [0],
  [-1],
  ['x'],
  [LONG],
  {},
  { a: 1 },
];

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  element?: z.ZodType;
  values?: unknown[];
};
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The literal values a discriminator key takes in one option of a discriminated union. */
function literalsOf(schema: z.ZodType | undefined): unknown[] {
  if (!schema) return [];
  const def = defOf(schema);
  if (def.type === 'literal') return def.values ?? [];
  if (def.innerType) return literalsOf(def.innerType);
  return [];
}

/** The object schemas reachable from `schema` through wrappers and pipes (one level: not nested fields). */
function objectsOf(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema);
  if (def.type === 'object') return [schema];
  if (def.innerType) return objectsOf(def.innerType);
  if (def.type === 'pipe') return [...objectsOf(def.in!), ...objectsOf(def.out!)];
  if (def.type === 'union') return (def.options ?? []).flatMap(objectsOf);
  return [];
}

/** Inputs that exercise every field of `schema` with every bad value, nested objects and union options included. */
function badInputs(schema: z.ZodType, depth = 0): unknown[] {
  if (depth > 3) return [];
  const def = defOf(schema);
  if (def.type === 'union' && def.discriminator) {
    const key = def.discriminator;
    return [
      {},
      ...BAD.map((b) => ({ [key]: b })),
      ...(def.options ?? []).flatMap((option) =>
        literalsOf(defOf(objectsOf(option)[0]!).shape?.[key]).flatMap((value) =>
          badInputs(option, depth + 1).map((input) => (input && typeof input === 'object' ? { ...input, [key]: value } : input)),
        ),
      ),
    ];
  }
  const objects = objectsOf(schema);
  if (objects.length === 0) return BAD;
  return objects.flatMap((object) => {
    const shape = defOf(object).shape ?? {};
    return [
      {},
      null,
      'x',
      [],
      ...Object.entries(shape).flatMap(([key, field]) => [
        ...BAD.map((b) => ({ [key]: b })),
        ...(objectsOf(field).length > 0 || defOf(field).discriminator !== undefined
          ? badInputs(field, depth + 1).map((nested) => ({ [key]: nested }))
          : []),
        ...(defOf(field).type === 'array' || (defOf(field).innerType && defOf(defOf(field).innerType!).type === 'array') ? [{ [key]: BAD }] : []),
      ]),
    ];
  });
}

/**
 * The messages the schema answers for all the bad inputs (one per distinct text). A body that is
 * not an object at all is answered by route() with its own message, so that issue is left out.
 */
function messagesOf(schema: z.ZodType): string[] {
  const seen = new Set<string>();
  for (const input of badInputs(schema)) {
    const result = schema.safeParse(input);
    if (result.success) continue;
    for (const issue of result.error.issues) if (issue.path.length > 0 || issue.code !== 'invalid_type') seen.add(issue.message);
  }
  return [...seen];
}

/** A message that names a field by its path: 'El campo name', 'El parámetro perPage', 'El campo sim.iccid'. */
const RAW_NAME = /El (campo|parámetro) (?!\p{Lu})\S+/u;
/** zod's own (English) texts: a schema without a Spanish message of its own. */
const ENGLISH = /Invalid|expected|received|Too (big|small)/;

const SCHEMAS = requestSchemas();

test('the walk finds every resource: admins, roles, groups, devices, actions, bulk, audit, account, users, enrollment, agent, agent settings', () => {
  const names = SCHEMAS.map(([n]) => n);
  expect(names).toEqual(
    expect.arrayContaining([
      'admins.createAdminBody',
      'admins.updateAdminBody',
      'admins.listAdminsQuery',
      'roles.roleBody',
      'roles.duplicateRoleBody',
      'groups.groupBody',
      'groups.deleteGroupQuery',
      'devices.deviceBody',
      'devices.deviceListQuery',
      'deviceActions.actionPayload',
      'deviceActions.commandParams',
      'deviceActions.historyQuery',
      'jobs.bulkBody',
      'deviceImport.importQuery',
      'audit.auditQuery',
      'account.changePasswordForm',
      'users.getUserByEmailBody',
      'enrollment.enrollmentTokenBody',
      'enrollment.enrollmentTokenQuery',
      'agent.enrollBody',
      'agent.checkinBody',
      'agent.rejectBody',
      'agent.eventBody',
      'agent.commandIdParams',
      'agentSettings.settingsScopeQuery',
      'agentSettings.lockAppBody',
      'agentSettings.businessAppBody',
      'agentSettings.settingsBody(smartphone, enrollment)',
      'agentSettings.settingsBody(smartphone, screen)',
      'agentSettings.settingsBody(tv, lock)',
      'fields.idParams',
      'credits.creditBody',
      'credits.paymentBody',
      'credits.paymentParams',
      'credits.creditListQuery',
    ]),
  );
});

test.each(SCHEMAS)('%s: every message names the field by its Spanish label, in Spanish', (_name, schema) => {
  const messages = messagesOf(schema);
  expect(messages.length).toBeGreaterThan(0);
  expect(messages.filter((m) => RAW_NAME.test(m))).toEqual([]);
  expect(messages.filter((m) => ENGLISH.test(m))).toEqual([]);
});

test('a missing field is named by its label: El campo Nombre es obligatorio, El campo IMEI es obligatorio', () => {
  const first = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;
  expect(first(groups.groupBody, {})).toBe('El campo Nombre es obligatorio');
  expect(first(devices.deviceBody, { deviceType: 1 })).toBe('El campo IMEI es obligatorio');
  expect(first(admins.createAdminBody, { correo: 'a@b.mx', nombres: 'Ana' })).toBe('El campo Perfil es obligatorio');
  expect(first(agent.enrollBody, { imei: '490154203237518', deviceType: 1, sim: {} })).toBe('El campo ICCID de la SIM es obligatorio');
});

test('the examples of the issue read with labels', () => {
  const first = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;
  expect(first(groups.groupBody, { name: '  ' })).toBe('El campo Nombre no puede estar vacío');
  expect(first(admins.updateAdminBody, { nombres: 'Ana', profileId: 0 })).toBe('El campo Perfil debe ser un número entero positivo');
  expect(first(devices.deviceBody, { imei: '123', deviceType: 1 })).toBe('El campo IMEI debe tener 15 dígitos');
  expect(first(agent.checkinBody, { sim: { iccid: '12', carrier: null } })).toBe('El campo ICCID de la SIM debe ser un ICCID de 18 a 22 dígitos');
  expect(first(fields.idParams, { id: 'x' })).toMatch(/^El parámetro Id /);
});

test('the fixed messages that name a field use its label too', () => {
  const texts = [
    ADMIN_API_MESSAGES.admins.profileNotFound,
    ADMIN_API_MESSAGES.param.range,
    INVENTORY_MESSAGES.devices.groupNotFound,
    INVENTORY_MESSAGES.groups.moveToNotFound,
    INVENTORY_MESSAGES.param.status,
    INVENTORY_MESSAGES.param.groupId,
    INVENTORY_MESSAGES.field.selection,
    AGENT_MESSAGES.tokens.groupNotFound,
    AGENT_MESSAGES.tokens.deviceNotFound,
    AGENT_MESSAGES.field.scope,
    ...(['imei2', 'serial', 'deviceType', 'brand', 'model'] as const).map((f) => AUTHZ_MESSAGES.deviceIdentity(f)),
  ];
  expect(texts.filter((t) => RAW_NAME.test(t))).toEqual([]);
  expect(texts.filter((t) => /\b(groupId|deviceId|profileId|moveTo|ids|filter|status|from|to|imei2|deviceType)\b/.test(t))).toEqual([]);
});
