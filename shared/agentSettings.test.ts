import {
  crossFieldIssues,
  defaultsOf,
  DEVICE_TYPE_SLUGS,
  effectiveSettings,
  fieldsOf,
  isActive,
  keysSet,
  mergeSettings,
  sectionsOf,
  settingField,
  settingsSection,
  SETTING_FIELDS,
  SETTINGS_SECTION_KEYS,
  SETTINGS_SECTIONS,
  type SettingField,
  type SettingsValues,
} from './agentSettings';
import { RESTRICTION_FLAGS, type DeviceTypeCode } from './constants/domain';

const PHONE = 1 as const;
const TV = 2 as const;
const TYPES = [PHONE, TV] as const;

const field = (key: string): SettingField => {
  const f = settingField(key);
  if (!f) throw new Error(`no setting ${key}`);
  return f;
};
const keysOf = (fields: readonly SettingField[]) => fields.map((f) => f.key);

describe('the matrix: which setting, in which section, for which device type', () => {
  test('keys are unique and every field belongs to a known section and at least one type', () => {
    const keys = keysOf(SETTING_FIELDS);
    expect(new Set(keys).size).toBe(keys.length);
    for (const f of SETTING_FIELDS) {
      expect(SETTINGS_SECTION_KEYS).toContain(f.section);
      expect(f.types.length).toBeGreaterThan(0);
      expect(f.label.trim()).not.toBe('');
      expect(f.help.trim()).not.toBe('');
    }
  });

  test('the TV-only flags are settings of TVs only', () => {
    for (const key of ['disable_tv_hospitality_mode', 'disable_media_player', 'disable_streaming']) {
      expect({ key, types: field(key).types }).toEqual({ key, types: [TV] });
      expect(keysOf(fieldsOf(PHONE))).not.toContain(key);
    }
  });

  test('SIM, call, SMS, camera and screen-capture flags and the whole screen section are settings of smartphones only', () => {
    const phoneOnly = [
      'require_sim_for_enroll',
      'lock_sim_change',
      'enabled_lock_for_remove_sim',
      'disable_incoming_calls',
      'disable_outgoing_calls',
      'disable_sms',
      'disable_camera',
      'disable_screen_capture',
    ];
    for (const key of phoneOnly) {
      expect({ key, types: field(key).types }).toEqual({ key, types: [PHONE] });
      expect(keysOf(fieldsOf(TV))).not.toContain(key);
    }
    const screen = SETTING_FIELDS.filter((f) => f.section === 'screen');
    expect(screen.length).toBeGreaterThan(0);
    for (const f of screen) expect({ key: f.key, types: f.types }).toEqual({ key: f.key, types: [PHONE] });
    expect(fieldsOf(TV, 'screen')).toEqual([]);
  });

  test('the QR and SIM requirements are enrollment settings', () => {
    expect(field('require_QR_validation')).toMatchObject({ section: 'enrollment', kind: 'flag', types: [PHONE, TV] });
    expect(field('require_sim_for_enroll')).toMatchObject({ section: 'enrollment', kind: 'flag' });
  });

  test('no reference §3 restriction flag is a release setting (release lifts every restriction)', () => {
    const release = keysOf(SETTING_FIELDS.filter((f) => f.section === 'release'));
    expect(release.length).toBeGreaterThan(0);
    expect(release.filter((k) => (RESTRICTION_FLAGS as readonly string[]).includes(k))).toEqual([]);
  });

  test('every reference §3 restriction flag is a flag setting of at least one device type', () => {
    for (const key of RESTRICTION_FLAGS) {
      const f = field(key);
      expect({ key, kind: f.kind }).toEqual({ key, kind: 'flag' });
      expect(TYPES.some((t) => fieldsOf(t).includes(f))).toBe(true);
    }
  });

  test('sections: smartphones have the four pages, TVs have no screen design; each field is reachable on a page of each of its types', () => {
    expect(sectionsOf(PHONE).map((s) => s.key)).toEqual(['enrollment', 'lock', 'release', 'screen']);
    expect(sectionsOf(TV).map((s) => s.key)).toEqual(['enrollment', 'lock', 'release']);
    expect(SETTINGS_SECTIONS.map((s) => s.slug)).toEqual(['restrictions-enrollment', 'restrictions-lock', 'restrictions-release', 'screen-design']);
    for (const s of SETTINGS_SECTION_KEYS) expect(settingsSection(s).key).toBe(s);
    for (const f of SETTING_FIELDS) {
      for (const t of f.types)
        expect({ key: f.key, type: t, path: settingsSection(f.section).paths[t] }).toEqual({ key: f.key, type: t, path: expect.any(String) });
    }
    expect(DEVICE_TYPE_SLUGS).toEqual({ 1: 'smartphone', 2: 'tv' });
  });

  test('fieldsOf keeps the page order and filters by type and section', () => {
    for (const t of TYPES) {
      const all = fieldsOf(t);
      expect(keysOf(all)).toEqual(keysOf(SETTING_FIELDS.filter((f) => f.types.includes(t))));
      expect(keysOf(sectionsOf(t).flatMap((s) => fieldsOf(t, s.key)))).toEqual(keysOf(all));
    }
  });

  test('a `when` points at another setting of the same section and types, with a value of its kind', () => {
    for (const f of SETTING_FIELDS.filter((x) => x.when)) {
      const other = field(f.when!.key);
      expect({ key: f.key, section: other.section }).toEqual({ key: f.key, section: f.section });
      for (const t of f.types) expect(other.types).toContain(t);
      if (other.kind === 'flag') expect(typeof f.when!.equals).toBe('boolean');
      if (other.kind === 'choice') expect(other.options.map((o) => o.value)).toContain(f.when!.equals);
    }
  });
});

describe('defaults', () => {
  test('each type has a default for exactly its own settings', () => {
    for (const t of TYPES) expect(Object.keys(defaultsOf(t))).toEqual(keysOf(fieldsOf(t)));
  });

  test('every default fits its kind and bounds', () => {
    for (const t of TYPES) {
      for (const f of fieldsOf(t)) {
        const v = f.defaults[t];
        const where = { key: f.key, type: t, value: v };
        switch (f.kind) {
          case 'flag':
            expect(typeof v).toBe('boolean');
            break;
          case 'integer':
            expect(Number.isInteger(v)).toBe(true);
            expect(where).toEqual({ ...where, value: expect.any(Number) });
            expect(v as number).toBeGreaterThanOrEqual(f.min);
            expect(v as number).toBeLessThanOrEqual(f.max);
            break;
          case 'choice':
            expect(f.options.map((o) => o.value)).toContain(v);
            break;
          case 'text':
            expect(typeof v).toBe('string');
            expect((v as string).length).toBeLessThanOrEqual(f.max);
            if (f.required) expect((v as string).length).toBeGreaterThan(0);
            if (!f.multiline) expect(v).not.toMatch(/[\r\n\t]/);
            break;
          case 'color':
            expect(v).toMatch(/^#[0-9a-f]{6}$/);
            break;
          case 'time':
            expect(v === null || /^([01]\d|2[0-3]):[0-5]\d$/.test(v as string)).toBe(true);
            break;
          default:
            // url, email, phone, logo: nothing until an administrator sets it.
            expect(where).toEqual({ ...where, value: null });
        }
      }
    }
  });

  test('the defaults break no rule across fields', () => {
    for (const t of TYPES) for (const s of sectionsOf(t)) expect(crossFieldIssues(t, s.key, defaultsOf(t))).toEqual([]);
  });

  test('the defaults that matter to the server: QR required, SIM change locks, nothing unregistered', () => {
    for (const t of TYPES) {
      expect(defaultsOf(t)).toMatchObject({
        require_QR_validation: true,
        allow_unregistered_enrollment: false,
        offline_lock_enabled: false,
        offline_lock_days: 15,
        offline_warning_days: 3,
        enrollment_notice: 'text',
        default_lock_type: 'PorCredito',
      });
    }
    expect(defaultsOf(PHONE)).toMatchObject({ lock_sim_change: true, require_sim_for_enroll: false, enabled_lock_for_remove_sim: false });
    expect(defaultsOf(TV)).toMatchObject({ disable_tv_hospitality_mode: true, disable_media_player: true, disable_streaming: true });
  });
});

describe('mergeSettings: defaults < global < group', () => {
  test('no layer: the defaults (a copy: changing it leaves the defaults alone)', () => {
    const merged = mergeSettings(PHONE);
    expect(merged).toEqual(defaultsOf(PHONE));
    merged.disable_sms = true;
    expect(defaultsOf(PHONE).disable_sms).toBe(false);
    expect(mergeSettings(TV, undefined, null)).toEqual(defaultsOf(TV));
  });

  test('the global row over the defaults, the group row over both', () => {
    const global = { disable_sms: true, offline_lock_days: 30, screen_title: 'Bloqueado por Financiera' };
    const group = { offline_lock_days: 45, contact_phone: '+52 55 1234 5678' };
    expect(mergeSettings(PHONE, global, group)).toEqual({
      ...defaultsOf(PHONE),
      disable_sms: true,
      offline_lock_days: 45,
      screen_title: 'Bloqueado por Financiera',
      contact_phone: '+52 55 1234 5678',
    });
    // Order is what decides: the later layer wins.
    expect(mergeSettings(PHONE, group, global).offline_lock_days).toBe(30);
  });

  test('a key the type does not have is ignored (a TV flag for a phone, a phone setting for a TV, unknown keys)', () => {
    const phone = mergeSettings(PHONE, { disable_streaming: false, nonsense: 1 }, { disable_media_player: false });
    expect(phone).toEqual(defaultsOf(PHONE));
    expect(phone).not.toHaveProperty('disable_streaming');
    const tv = mergeSettings(TV, { lock_sim_change: true, screen_title: 'x', logo: 'a'.repeat(64) });
    expect(tv).toEqual(defaultsOf(TV));
    expect(tv).not.toHaveProperty('lock_sim_change');
  });

  test('a value of the wrong kind is ignored; null stays for the kinds that may be empty', () => {
    const bad = {
      require_QR_validation: 'false',
      disable_sms: null,
      offline_lock_days: 12.5,
      payment_reminder_minutes: '60',
      enrollment_notice: 3,
      screen_title: false,
      primary_color: null,
      release_uninstall_agent: 0,
    };
    expect(mergeSettings(PHONE, bad)).toEqual(defaultsOf(PHONE));
    const empty = { quiet_hours_start: null, quiet_hours_end: null, enrollment_notice_url: null, contact_email: null };
    const merged = mergeSettings(PHONE, { quiet_hours_start: '22:00', contact_email: 'a@b.mx' }, empty);
    expect(merged).toMatchObject(empty);
    // A wrong group value lets the global one show through.
    expect(mergeSettings(PHONE, { offline_lock_days: 20 }, { offline_lock_days: '40' }).offline_lock_days).toBe(20);
  });

  test('the layers are not changed', () => {
    const global = { disable_sms: true };
    const group = { disable_camera: false };
    mergeSettings(PHONE, global, group);
    expect(global).toEqual({ disable_sms: true });
    expect(group).toEqual({ disable_camera: false });
  });
});

describe('keysSet: what a row sets', () => {
  test('the settings of the type the row holds with a value of their kind, in page order', () => {
    const row = { offline_lock_days: 20, disable_sms: true, disable_streaming: true, foo: 1, screen_title: 'Hola', contact_phone: null };
    expect(keysSet(PHONE, row)).toEqual(['disable_sms', 'offline_lock_days', 'screen_title', 'contact_phone']);
    expect(keysSet(PHONE, row, 'lock')).toEqual(['disable_sms', 'offline_lock_days']);
    expect(keysSet(PHONE, row, 'screen')).toEqual(['screen_title', 'contact_phone']);
    expect(keysSet(PHONE, row, 'release')).toEqual([]);
    expect(keysSet(TV, row)).toEqual(['disable_streaming', 'offline_lock_days']);
  });

  test('a wrong kind, an empty row or no row set nothing', () => {
    expect(keysSet(PHONE, { disable_sms: 'true', offline_lock_days: null })).toEqual([]);
    expect(keysSet(PHONE, {})).toEqual([]);
    expect(keysSet(PHONE, null)).toEqual([]);
    expect(keysSet(TV, undefined, 'lock')).toEqual([]);
  });
});

describe('crossFieldIssues: rules across fields', () => {
  const values = (t: DeviceTypeCode, v: SettingsValues) => ({ ...defaultsOf(t), ...v });

  test('enrollment: a text notice needs its text, a link notice its URL; no notice needs neither', () => {
    for (const t of TYPES) {
      expect(crossFieldIssues(t, 'enrollment', values(t, { enrollment_notice: 'text', enrollment_notice_text: '' }))).toEqual([
        { field: 'enrollment_notice_text', message: 'El campo Texto del aviso es obligatorio cuando el aviso es un texto' },
      ]);
      expect(crossFieldIssues(t, 'enrollment', values(t, { enrollment_notice: 'url', enrollment_notice_url: null }))).toEqual([
        { field: 'enrollment_notice_url', message: 'El campo Enlace del aviso es obligatorio cuando el aviso es un enlace' },
      ]);
      expect(crossFieldIssues(t, 'enrollment', values(t, { enrollment_notice: 'url', enrollment_notice_url: 'https://financiera.mx/t' }))).toEqual(
        [],
      );
      expect(
        crossFieldIssues(t, 'enrollment', values(t, { enrollment_notice: 'none', enrollment_notice_text: '', enrollment_notice_url: null })),
      ).toEqual([]);
    }
  });

  test('lock: the warning comes before the offline lock, only while the offline lock is on', () => {
    const message = 'El campo Avisar antes (días) debe ser menor que Días sin conexión (10)';
    for (const warning of [10, 11, 197]) {
      expect(
        crossFieldIssues(PHONE, 'lock', values(PHONE, { offline_lock_enabled: true, offline_lock_days: 10, offline_warning_days: warning })),
      ).toEqual([{ field: 'offline_warning_days', message }]);
    }
    expect(crossFieldIssues(TV, 'lock', values(TV, { offline_lock_enabled: true, offline_lock_days: 10, offline_warning_days: 9 }))).toEqual([]);
    expect(crossFieldIssues(TV, 'lock', values(TV, { offline_lock_enabled: false, offline_lock_days: 10, offline_warning_days: 50 }))).toEqual([]);
  });

  test('lock: quiet hours have both ends or none, and two different ends, while the reminder is on', () => {
    const on = { payment_reminder_enabled: true };
    expect(crossFieldIssues(PHONE, 'lock', values(PHONE, { ...on, quiet_hours_start: '22:00', quiet_hours_end: null }))).toEqual([
      { field: 'quiet_hours_end', message: 'Indique las dos horas del horario de descanso, o ninguna' },
    ]);
    expect(crossFieldIssues(PHONE, 'lock', values(PHONE, { ...on, quiet_hours_start: null, quiet_hours_end: '07:00' }))).toEqual([
      { field: 'quiet_hours_start', message: 'Indique las dos horas del horario de descanso, o ninguna' },
    ]);
    expect(crossFieldIssues(TV, 'lock', values(TV, { ...on, quiet_hours_start: '08:00', quiet_hours_end: '08:00' }))).toEqual([
      { field: 'quiet_hours_end', message: 'El campo Horario de descanso hasta debe ser distinto de Horario de descanso desde' },
    ]);
    expect(crossFieldIssues(PHONE, 'lock', values(PHONE, { ...on, quiet_hours_start: null, quiet_hours_end: null }))).toEqual([]);
    expect(crossFieldIssues(PHONE, 'lock', values(PHONE, { ...on, quiet_hours_start: '23:00', quiet_hours_end: '06:30' }))).toEqual([]);
    // Reminder off: the hours are not checked.
    expect(
      crossFieldIssues(PHONE, 'lock', values(PHONE, { payment_reminder_enabled: false, quiet_hours_start: '22:00', quiet_hours_end: null })),
    ).toEqual([]);
  });

  test("a section's rules only: the lock rules do not apply on the enrollment page and the other way round", () => {
    const broken = values(PHONE, {
      enrollment_notice: 'url',
      enrollment_notice_url: null,
      offline_lock_enabled: true,
      offline_lock_days: 5,
      offline_warning_days: 5,
    });
    expect(crossFieldIssues(PHONE, 'enrollment', broken).map((i) => i.field)).toEqual(['enrollment_notice_url']);
    expect(crossFieldIssues(PHONE, 'lock', broken).map((i) => i.field)).toEqual(['offline_warning_days']);
    expect(crossFieldIssues(PHONE, 'release', broken)).toEqual([]);
    expect(crossFieldIssues(PHONE, 'screen', broken)).toEqual([]);
  });

  test('isActive follows `when`', () => {
    expect(isActive(field('offline_lock_days'), values(PHONE, { offline_lock_enabled: true }))).toBe(true);
    expect(isActive(field('offline_lock_days'), values(PHONE, { offline_lock_enabled: false }))).toBe(false);
    expect(isActive(field('enrollment_notice_url'), values(TV, { enrollment_notice: 'url' }))).toBe(true);
    expect(isActive(field('enrollment_notice_text'), values(TV, { enrollment_notice: 'url' }))).toBe(false);
    expect(isActive(field('disable_sms'), {})).toBe(true);
  });
});

describe('effectiveSettings: what the server applies', () => {
  const SERVER_FLAGS = [...RESTRICTION_FLAGS, 'allow_unregistered_enrollment'];

  test('every reference §3 flag and the unregistered-enrollment rule, as booleans, for both types', () => {
    for (const t of TYPES) {
      const e = effectiveSettings(t, undefined, undefined);
      for (const k of SERVER_FLAGS) expect({ key: k, type: typeof e[k as keyof typeof e] }).toEqual({ key: k, type: 'boolean' });
      // The other settings come along, merged.
      expect(e).toMatchObject(defaultsOf(t));
    }
  });

  test('a flag the type does not have is false, whatever a row says (a TV has no SIM, a phone no hospitality mode)', () => {
    const tv = effectiveSettings(
      TV,
      { lock_sim_change: true, disable_camera: true, require_sim_for_enroll: true },
      { enabled_lock_for_remove_sim: true },
    );
    expect(tv).toMatchObject({ lock_sim_change: false, disable_camera: false, require_sim_for_enroll: false, enabled_lock_for_remove_sim: false });
    const phone = effectiveSettings(PHONE, { disable_streaming: true }, { disable_tv_hospitality_mode: true, disable_media_player: true });
    expect(phone).toMatchObject({ disable_streaming: false, disable_tv_hospitality_mode: false, disable_media_player: false });
  });

  test('the group over the global row over the defaults', () => {
    expect(effectiveSettings(PHONE, undefined, undefined)).toMatchObject({ lock_sim_change: true, require_QR_validation: true });
    expect(effectiveSettings(PHONE, { lock_sim_change: false, require_QR_validation: false }, undefined)).toMatchObject({
      lock_sim_change: false,
      require_QR_validation: false,
    });
    expect(effectiveSettings(PHONE, { lock_sim_change: false }, { lock_sim_change: true, allow_unregistered_enrollment: true })).toMatchObject({
      lock_sim_change: true,
      allow_unregistered_enrollment: true,
    });
    expect(effectiveSettings(TV, { require_QR_validation: false, offline_lock_days: 9 }, { require_QR_validation: 'no' })).toMatchObject({
      require_QR_validation: false,
      offline_lock_days: 9,
    });
  });
});
