import * as z from 'zod';
import { fieldsOf, SETTINGS_SECTION_KEYS, settingField, type SettingField, type SettingsSectionKey, type SettingsValues } from '../agentSettings';
import { SELECTABLE_APP_TYPES, type DeviceTypeCode } from '../constants/domain';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { AGENT_SETTINGS_MESSAGES as M } from '../areaMessages/agentSettings';
import { ADMIN_API_MESSAGES } from '../areaMessages/admin';
import { fieldError, idField, intParam, listResponse, textField } from './fields';

/**
 * Agent settings (portal API /api/v5/agent-settings), each route guarded by its page's path:
 *
 * - `GET  /{smartphone|tv}/overview`: the overview page (what is set globally, which groups override it).
 * - `GET  /{smartphone|tv}/{section slug}?groupId=`: one section for the global scope or a group.
 * - `PUT  /{smartphone|tv}/{section slug}?groupId=` `{ version, values }`: saves it (a new version).
 *   For the global scope `values` holds the section's values (a key left out returns to its
 *   default); for a group, the keys it overrides (a key left out is inherited; `{}` removes the
 *   group's override of the section). `version` is the version the page loaded: another save in
 *   between answers 409 SETTINGS_VERSION_CONFLICT.
 * - `POST /smartphone/screen-design/logo` (the image's bytes, ≤ 512 KB, PNG or JPEG by content):
 *   `{ logo, url }`; the agent and the page load it from `/agent/v1/logos/{sha256}` (immutable).
 * - `GET|POST /smartphone/business-apps`, `PUT|DELETE /smartphone/business-apps/:id`.
 * - `GET|POST /{smartphone|tv}/app-lock`, `PUT|DELETE /{…}/app-lock/:id`, `POST /{…}/app-lock/:id/current`.
 */

const F = M.field;
const A = ADMIN_API_MESSAGES.field;
const LS = FIELD_LABELS.agentSettings;

// Values -------------------------------------------------------------------------------

// eslint-disable-next-line no-control-regex -- control characters other than line breaks and tabs
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const HTTPS_URL_MAX = 2000;

/** A text of several lines (line breaks and tabs allowed, other control characters not), trimmed. */
export const multilineText = (label: string, max: number) =>
  z
    .string({ error: fieldError(label, A.text(label)) })
    .trim()
    .max(max, { error: A.tooLong(label, max) })
    .refine((v) => !CONTROL_MULTILINE.test(v), { error: A.badCharacters(label) });

/** An https URL (a real one: it parses, it has a host). */
export const httpsUrl = (label: string) =>
  z
    .string({ error: fieldError(label, F.url(label)) })
    .trim()
    .max(HTTPS_URL_MAX, { error: A.tooLong(label, HTTPS_URL_MAX) })
    .refine(
      (v) => {
        if (!/^https:\/\//i.test(v) || !URL.canParse(v)) return false;
        const u = new URL(v);
        return u.protocol === 'https:' && u.hostname.length > 0 && !/\s/.test(v);
      },
      { error: F.url(label) },
    );

/** A SHA-256 as `sha256sum` prints it (64 hexadecimal characters, stored in lower case). */
export const sha256Field = (label: string) =>
  z
    .string({ error: fieldError(label, F.sha256(label)) })
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, { error: F.sha256(label) })
    .transform((v) => v.toLowerCase());

const PHONE = /^\+?[0-9][0-9 -]{6,22}[0-9]$/;

/**
 * A value that may be empty: null, or '' (an emptied input) read as null, or a string the
 * `text` schema accepts; anything else is answered with `message`, in Spanish (a zod union
 * would answer with its members' English texts).
 */
function nullable(label: string, message: string, text: z.ZodType<unknown>): z.ZodType<unknown> {
  return z.unknown().transform((v, ctx) => {
    if (v === null || v === '') return null;
    if (v === undefined) {
      ctx.addIssue({ code: 'custom', message: A.required(label) });
      return z.NEVER;
    }
    if (typeof v !== 'string') {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    const parsed = text.safeParse(v);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? message });
      return z.NEVER;
    }
    return parsed.data;
  });
}

/** The schema of one setting's value. */
function valueSchema(f: SettingField): z.ZodType<unknown> {
  const l = f.label;
  switch (f.kind) {
    case 'flag':
      return z.boolean({ error: fieldError(l, F.boolean(l)) });
    case 'integer':
      return z
        .int({ error: fieldError(l, F.integer(l, f.min, f.max)) })
        .min(f.min, { error: F.integer(l, f.min, f.max) })
        .max(f.max, { error: F.integer(l, f.min, f.max) });
    case 'choice': {
      const values = f.options.map((o) => o.value) as [string, ...string[]];
      return z.enum(values, { error: fieldError(l, F.oneOf(l, values)) });
    }
    case 'text': {
      const base = multilineText(l, f.max).refine((v) => f.multiline || !/[\r\n\t]/.test(v), { error: A.badCharacters(l) });
      return f.required ? base.refine((v) => v.length > 0, { error: A.empty(l) }) : base;
    }
    case 'url':
      return nullable(l, F.url(l), httpsUrl(l));
    case 'email':
      return nullable(
        l,
        A.email(l),
        z
          .string()
          .trim()
          .toLowerCase()
          .max(254, { error: A.email(l) })
          .pipe(z.email({ error: A.email(l) })),
      );
    case 'phone':
      return nullable(
        l,
        F.phone(l),
        z
          .string()
          .trim()
          .refine((v) => PHONE.test(v) && v.replace(/\D/g, '').length >= 8 && v.replace(/\D/g, '').length <= 15, { error: F.phone(l) }),
      );
    case 'time':
      return nullable(l, F.time(l), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: F.time(l) }));
    case 'color':
      return z
        .string({ error: fieldError(l, F.color(l)) })
        .regex(/^#[0-9a-fA-F]{6}$/, { error: F.color(l) })
        .transform((v) => v.toLowerCase());
    case 'logo':
      return nullable(l, F.logo(l), z.string().regex(/^[0-9a-f]{64}$/, { error: F.logo(l) }));
  }
}

/**
 * The values of a section for a device type: every key optional (left out = default for the
 * global scope, inherited for a group); a key that is not a setting of the section → 400.
 */
export function sectionValues(deviceType: DeviceTypeCode, section: SettingsSectionKey) {
  const shape = Object.fromEntries(fieldsOf(deviceType, section).map((f) => [f.key, valueSchema(f).optional()]));
  return z.looseObject(shape, { error: F.values }).superRefine((values, ctx) => {
    // Each key that is not a setting of this page, on its own path (a form or client can place it).
    for (const key of Object.keys(values)) {
      if (Object.hasOwn(shape, key)) continue;
      const other = settingField(key);
      ctx.addIssue({ code: 'custom', path: [key], message: other ? F.otherSetting(other.label) : F.unknownSetting(key) });
    }
  });
}

/** PUT /v5/agent-settings/{type}/{section}. */
export function settingsBody(deviceType: DeviceTypeCode, section: SettingsSectionKey) {
  return z.object(
    {
      version: z
        .int({ error: fieldError(LS.version, F.version(LS.version)) })
        .min(0, { error: F.version(LS.version) })
        .nullable(),
      values: sectionValues(deviceType, section),
    },
    { error: A.body },
  );
}
export type SettingsBody = { version: number | null; values: SettingsValues };

/** `?groupId=` of the section routes: absent means the global scope. */
export const settingsScopeQuery = z.object({ groupId: intParam(LS.groupId, 1, 2_147_483_647).optional() });

// Answers ------------------------------------------------------------------------------

const settingValue = z.union([z.boolean(), z.number(), z.string(), z.null()]);
const valuesResponse = z.record(z.string(), settingValue);

export const settingsOverrideResponse = z.strictObject({ groupId: z.number().int(), groupName: z.string(), keys: z.array(z.string()) });
export type SettingsOverride = z.infer<typeof settingsOverrideResponse>;

export const settingsChangeResponse = z.strictObject({
  version: z.number().int(),
  changedAt: z.string(),
  changedBy: z.string().nullable(),
  changes: z.array(z.strictObject({ key: z.string(), before: settingValue.optional(), after: settingValue.optional() })),
});
export type SettingsChange = z.infer<typeof settingsChangeResponse>;

/** GET and PUT /v5/agent-settings/{type}/{section}. */
export const settingsSectionResponse = z.strictObject({
  deviceType: z.union([z.literal(1), z.literal(2)]),
  section: z.enum(SETTINGS_SECTION_KEYS),
  groupId: z.number().int().nullable(),
  /** The version of the scope's row (send it back with the save); null: the group has no row yet. */
  version: z.number().int().nullable(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  /** The values that apply to the scope (a group's override over the global values). */
  values: valuesResponse,
  /** The global values of the section (what a group inherits). */
  globalValues: valuesResponse,
  /** The keys the group sets itself (empty for the global scope). */
  overridden: z.array(z.string()),
  /** Every group that overrides something of the section. */
  overrides: z.array(settingsOverrideResponse),
  /** The scope's last saves that changed the section, newest first. */
  history: z.array(settingsChangeResponse),
});
export type SettingsSectionAnswer = z.infer<typeof settingsSectionResponse>;

/** POST /v5/agent-settings/smartphone/screen-design/logo. */
export const logoResponse = z.strictObject({ logo: z.string(), url: z.string() });
export type LogoAnswer = z.infer<typeof logoResponse>;

// Lock-app versions --------------------------------------------------------------------

const LA = FIELD_LABELS.lockApp;
const appTypeCodes = SELECTABLE_APP_TYPES.map((t) => t.code);
const appTypeField = (label: string) =>
  z
    .int({
      error: fieldError(
        label,
        F.oneOf(
          label,
          SELECTABLE_APP_TYPES.map((t) => `${t.code} (${t.label})`),
        ),
      ),
    })
    .refine((v) => (appTypeCodes as number[]).includes(v), {
      error: F.oneOf(
        label,
        SELECTABLE_APP_TYPES.map((t) => `${t.code} (${t.label})`),
      ),
    });

const ANDROID_PACKAGE = /^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$/;
const packageNameField = (label: string) =>
  z
    .string({ error: fieldError(label, F.packageName(label)) })
    .trim()
    .max(255, { error: A.tooLong(label, 255) })
    .regex(ANDROID_PACKAGE, { error: F.packageName(label) });

export const RELEASE_NOTES_MAX = 2000;

/** POST /v5/agent-settings/{type}/app-lock and PUT …/app-lock/:id. */
export const lockAppBody = z.object(
  {
    versionName: textField(LA.versionName, { min: 1, max: 40 }),
    versionApp: textField(LA.versionApp, { min: 1, max: 40 }),
    appType: appTypeField(LA.appType),
    packageName: nullable(LA.packageName, F.packageName(LA.packageName), packageNameField(LA.packageName)).default(null),
    downloadUrl: httpsUrl(LA.downloadUrl),
    sha256: sha256Field(LA.sha256),
    releaseNotes: multilineText(LA.releaseNotes, RELEASE_NOTES_MAX)
      .nullable()
      .transform((v) => (v ? v : null))
      .default(null),
  },
  { error: A.body },
);
export type LockAppBody = z.infer<typeof lockAppBody>;
export type LockAppBodyInput = z.input<typeof lockAppBody>;

export const lockAppResponse = z.strictObject({
  id: z.number().int(),
  deviceType: z.union([z.literal(1), z.literal(2)]),
  versionName: z.string(),
  versionApp: z.string(),
  appType: z.number().int(),
  packageName: z.string().nullable(),
  /** Null only for versions recorded before downloads were kept. */
  downloadUrl: z.string().nullable(),
  sha256: z.string().nullable(),
  releaseNotes: z.string().nullable(),
  isCurrent: z.boolean(),
  /** Enrolled devices of the type that report this version. */
  devices: z.number().int(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type LockAppVersion = z.infer<typeof lockAppResponse>;
export const lockAppListResponse = listResponse(lockAppResponse);
export type LockAppList = z.infer<typeof lockAppListResponse>;

// Business apps ------------------------------------------------------------------------

const BA = FIELD_LABELS.businessApps;
export const BUSINESS_APP_GROUPS_MAX = 100;

/** POST /v5/agent-settings/smartphone/business-apps and PUT …/:id. `groupIds` empty: every smartphone. */
export const businessAppBody = z.object(
  {
    name: textField(BA.name, { min: 1, max: 80 }),
    packageName: packageNameField(BA.packageName),
    versionName: textField(BA.versionName, { min: 1, max: 40 }),
    versionCode: idField(BA.versionCode),
    appType: appTypeField(BA.appType),
    downloadUrl: httpsUrl(BA.downloadUrl),
    sha256: sha256Field(BA.sha256),
    groupIds: z
      .array(idField(BA.groupIds), { error: F.groupIds(BA.groupIds, BUSINESS_APP_GROUPS_MAX) })
      .max(BUSINESS_APP_GROUPS_MAX, { error: F.groupIds(BA.groupIds, BUSINESS_APP_GROUPS_MAX) })
      .default([]),
  },
  { error: A.body },
);
export type BusinessAppBody = z.infer<typeof businessAppBody>;
export type BusinessAppBodyInput = z.input<typeof businessAppBody>;

export const businessAppResponse = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  packageName: z.string(),
  versionName: z.string(),
  versionCode: z.number().int(),
  appType: z.number().int(),
  downloadUrl: z.string(),
  sha256: z.string(),
  /** Empty: every smartphone. */
  groups: z.array(z.strictObject({ id: z.number().int(), name: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type BusinessApp = z.infer<typeof businessAppResponse>;

/** What an agent receives of a business app (GET /agent/v1/settings) and the audit log keeps. */
export const agentBusinessAppResponse = businessAppResponse.pick({
  name: true,
  packageName: true,
  versionName: true,
  versionCode: true,
  appType: true,
  downloadUrl: true,
  sha256: true,
});
export type AgentBusinessApp = z.infer<typeof agentBusinessAppResponse>;

/** The agent's view of a business app. */
export const forAgents = (a: BusinessApp): AgentBusinessApp => ({
  name: a.name,
  packageName: a.packageName,
  versionName: a.versionName,
  versionCode: a.versionCode,
  appType: a.appType,
  downloadUrl: a.downloadUrl,
  sha256: a.sha256,
});
export const businessAppListResponse = listResponse(businessAppResponse);
export type BusinessAppList = z.infer<typeof businessAppListResponse>;

// Overview -----------------------------------------------------------------------------

/** GET /v5/agent-settings/{type}/overview. */
export const settingsOverviewResponse = z.strictObject({
  deviceType: z.union([z.literal(1), z.literal(2)]),
  sections: z.array(
    z.strictObject({
      section: z.enum(SETTINGS_SECTION_KEYS),
      version: z.number().int(),
      updatedAt: z.string().nullable(),
      updatedBy: z.string().nullable(),
      values: valuesResponse,
      overrides: z.array(settingsOverrideResponse),
    }),
  ),
  lockApp: z.strictObject({
    current: lockAppResponse.nullable(),
    versions: z.number().int(),
    /** Enrolled devices of the type (not released) and how many report another version than the current. */
    devices: z.number().int(),
    outdated: z.number().int(),
  }),
  /** Smartphones only. */
  businessApps: z.strictObject({ total: z.number().int() }).nullable(),
});
export type SettingsOverview = z.infer<typeof settingsOverviewResponse>;
