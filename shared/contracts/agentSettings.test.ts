import type * as z from 'zod';
import { defaultsOf, fieldsOf, sectionsOf, SETTING_FIELDS, settingField, type SettingField, logoUrl, typeSlug } from '../agentSettings';
import { LOCK_TYPES, type DeviceTypeCode } from '../constants/domain';
import { businessAppBody, lockAppBody, sectionValues, settingsBody, settingsScopeQuery } from './agentSettings';

const PHONE = 1 as const;
const TV = 2 as const;
const TYPES = [PHONE, TV] as const;
const SHA = 'ABCDEF0123456789abcdef0123456789ABCDEF0123456789abcdef0123456789';

const ok = (schema: z.ZodType, input: unknown): unknown => {
  const r = schema.safeParse(input);
  if (!r.success) throw new Error(`refused ${JSON.stringify(input)}: ${r.error.issues.map((i) => i.message).join(' | ')}`);
  return r.data;
};
/** The first issue of a refused input (a test failure when it is accepted). */
const refused = (schema: z.ZodType, input: unknown): { message: string; path: string } => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`accepted ${JSON.stringify(input)} as ${JSON.stringify(r.data)}`);
  const issue = r.error.issues[0]!;
  return { message: issue.message, path: issue.path.map(String).join('.') };
};
const label = (key: string) => SETTING_FIELDS.find((f) => f.key === key)!.label;

describe('sectionValues: the values of one section of one device type', () => {
  test('every key is optional; the defaults of the section are accepted as they are', () => {
    for (const t of TYPES) {
      for (const s of sectionsOf(t)) {
        expect(ok(sectionValues(t, s.key), {})).toEqual({});
        const defaults = Object.fromEntries(fieldsOf(t, s.key).map((f) => [f.key, f.defaults[t]]));
        expect(ok(sectionValues(t, s.key), defaults)).toEqual(defaults);
      }
    }
  });

  test('a key that is not a setting of the section is refused, naming it (unknown, another section, another type)', () => {
    const cases: [DeviceTypeCode, 'enrollment' | 'lock' | 'release' | 'screen', string][] = [
      [PHONE, 'lock', 'color_favorito'],
      [PHONE, 'lock', 'screen_title'],
      [PHONE, 'release', 'disable_sms'],
      [PHONE, 'lock', 'disable_streaming'],
      [TV, 'lock', 'disable_camera'],
      [TV, 'lock', 'lock_sim_change'],
      [TV, 'enrollment', 'require_sim_for_enroll'],
    ];
    for (const [t, s, key] of cases) {
      const { message, path } = refused(sectionValues(t, s), { [key]: true });
      expect(path).toBe(key);
      // A setting of another page or type is named by its label; an unknown key as sent.
      const other = settingField(key);
      expect(message).toBe(
        other
          ? `El ajuste ${other.label} no pertenece a esta página ni a este tipo de dispositivo`
          : `«${key}» no es un ajuste de la configuración del agente`,
      );
    }
    // A TV's screen design has no field at all: any key is refused.
    expect(refused(sectionValues(TV, 'screen'), { screen_title: 'Hola' }).message).toMatch(/Título/);
  });

  test('values that are not an object are refused with the Valores message', () => {
    for (const input of [null, [], 'x', 3]) {
      expect(refused(sectionValues(PHONE, 'lock'), input).message).toBe('El campo Valores debe ser un objeto con los valores de la sección');
    }
  });

  test('flags: booleans only', () => {
    const s = sectionValues(PHONE, 'enrollment');
    expect(ok(s, { require_QR_validation: false })).toEqual({ require_QR_validation: false });
    for (const bad of ['true', 1, null, 'sí']) {
      expect(refused(s, { require_QR_validation: bad })).toEqual({
        message: 'El campo Exigir código QR debe ser verdadero o falso',
        path: 'require_QR_validation',
      });
    }
  });

  test('integers: whole numbers within the bounds of each setting', () => {
    const s = sectionValues(TV, 'lock');
    const days = 'El campo Días sin conexión debe ser un número entero entre 3 y 200';
    expect(ok(s, { offline_lock_days: 3 })).toEqual({ offline_lock_days: 3 });
    expect(ok(s, { offline_lock_days: 200 })).toEqual({ offline_lock_days: 200 });
    for (const bad of [2, 201, 15.5, '15', null, -3])
      expect(refused(s, { offline_lock_days: bad })).toEqual({ message: days, path: 'offline_lock_days' });
    expect(ok(s, { offline_warning_days: 0 })).toEqual({ offline_warning_days: 0 });
    expect(refused(s, { offline_warning_days: 200 }).message).toBe('El campo Avisar antes (días) debe ser un número entero entre 0 y 199');
    expect(refused(s, { offline_warning_days: -1 }).message).toBe('El campo Avisar antes (días) debe ser un número entero entre 0 y 199');
    expect(ok(s, { payment_reminder_minutes: 5 })).toEqual({ payment_reminder_minutes: 5 });
    expect(ok(s, { payment_reminder_minutes: 1440 })).toEqual({ payment_reminder_minutes: 1440 });
    for (const bad of [4, 1441]) {
      expect(refused(s, { payment_reminder_minutes: bad }).message).toBe('El campo Cada (minutos) debe ser un número entero entre 5 y 1440');
    }
  });

  test('choices: one of the options, listed in the message', () => {
    const enrollment = sectionValues(PHONE, 'enrollment');
    expect(ok(enrollment, { enrollment_notice: 'url' })).toEqual({ enrollment_notice: 'url' });
    for (const bad of ['pdf', 'URL', '', null, 1]) {
      expect(refused(enrollment, { enrollment_notice: bad }).message).toBe('El campo Aviso al enrolar debe ser uno de: none, text, url');
    }
    const lock = sectionValues(TV, 'lock');
    for (const t of LOCK_TYPES) expect(ok(lock, { default_lock_type: t.key })).toEqual({ default_lock_type: t.key });
    expect(refused(lock, { default_lock_type: 'Por Crédito' }).message).toBe(
      `El campo Tipo de bloqueo predeterminado debe ser uno de: ${LOCK_TYPES.map((t) => t.key).join(', ')}`,
    );
  });

  test('texts: trimmed, at most their length, line breaks only where multiline, required ones never empty', () => {
    const enrollment = sectionValues(TV, 'enrollment');
    expect(ok(enrollment, { enrollment_notice_text: '  Línea 1\nLínea 2\t ' })).toEqual({ enrollment_notice_text: 'Línea 1\nLínea 2' });
    expect(ok(enrollment, { enrollment_notice_text: 'x'.repeat(2000) })).toEqual({ enrollment_notice_text: 'x'.repeat(2000) });
    expect(refused(enrollment, { enrollment_notice_text: 'x'.repeat(2001) }).message).toBe(
      'El campo Texto del aviso admite como máximo 2000 caracteres',
    );
    expect(refused(enrollment, { enrollment_notice_text: 'a\u0000b' }).message).toBe('El campo Texto del aviso contiene caracteres no permitidos');
    expect(refused(enrollment, { enrollment_notice_text: null }).message).toBe('El campo Texto del aviso debe ser un texto');
    // Not required: empty is allowed (the rule across fields decides when it is needed).
    expect(ok(enrollment, { enrollment_notice_text: '' })).toEqual({ enrollment_notice_text: '' });

    const screen = sectionValues(PHONE, 'screen');
    expect(ok(screen, { screen_title: '  Equipo bloqueado ' })).toEqual({ screen_title: 'Equipo bloqueado' });
    expect(refused(screen, { screen_title: 'Dos\nlíneas' }).message).toBe('El campo Título contiene caracteres no permitidos');
    for (const empty of ['', '   ']) expect(refused(screen, { screen_title: empty }).message).toBe('El campo Título no puede estar vacío');
    expect(refused(screen, { screen_title: 'x'.repeat(61) }).message).toBe('El campo Título admite como máximo 60 caracteres');
    expect(refused(screen, { screen_message: 'x'.repeat(351) }).message).toBe('El campo Mensaje admite como máximo 350 caracteres');
    expect(ok(sectionValues(PHONE, 'release'), { release_message: '' })).toEqual({ release_message: '' });
  });

  test("URLs: https only, a real address; '' or null is no URL", () => {
    const s = sectionValues(PHONE, 'enrollment');
    const message = 'El campo Enlace del aviso debe ser una dirección https válida';
    expect(ok(s, { enrollment_notice_url: ' https://financiera.mx/terminos?v=2 ' })).toEqual({
      enrollment_notice_url: 'https://financiera.mx/terminos?v=2',
    });
    expect(ok(s, { enrollment_notice_url: '' })).toEqual({ enrollment_notice_url: null });
    expect(ok(s, { enrollment_notice_url: null })).toEqual({ enrollment_notice_url: null });
    for (const bad of [
      'http://financiera.mx/terminos',
      'ftp://financiera.mx',
      'javascript:alert(1)',
      'https://',
      'https://fin anciera.mx',
      'financiera.mx',
      3,
    ]) {
      expect({ bad, ...refused(s, { enrollment_notice_url: bad }) }).toEqual({ bad, message, path: 'enrollment_notice_url' });
    }
    expect(refused(s, { enrollment_notice_url: `https://financiera.mx/${'x'.repeat(2000)}` }).message).toBe(
      'El campo Enlace del aviso admite como máximo 2000 caracteres',
    );
  });

  test("e-mail, phone and time: '' → null, e-mail lower-cased, phone of 8 to 15 digits, time HH:MM", () => {
    const screen = sectionValues(PHONE, 'screen');
    expect(ok(screen, { contact_email: ' Cobranza@Financiera.MX ', contact_phone: '', logo: null })).toEqual({
      contact_email: 'cobranza@financiera.mx',
      contact_phone: null,
      logo: null,
    });
    expect(ok(screen, { contact_email: '' })).toEqual({ contact_email: null });
    for (const bad of ['no-es-correo', 'a@', 7]) {
      expect(refused(screen, { contact_email: bad }).message).toBe('El campo Correo de contacto debe ser un correo electrónico válido');
    }
    for (const good of ['+52 55 1234 5678', '5512345678', '55-1234-5678', '12345678', '123456789012345']) {
      expect(ok(screen, { contact_phone: good })).toEqual({ contact_phone: good });
    }
    const phone = 'El campo Teléfono de contacto debe tener de 8 a 15 dígitos (puede empezar con + y llevar espacios o guiones)';
    for (const bad of ['1234567', '1234567890123456', '55 1234 abcd', '++5512345678', '-5512345678', 5512345678]) {
      expect({ bad, message: refused(screen, { contact_phone: bad }).message }).toEqual({ bad, message: phone });
    }

    const lock = sectionValues(TV, 'lock');
    expect(ok(lock, { quiet_hours_start: '00:00', quiet_hours_end: '23:59' })).toEqual({ quiet_hours_start: '00:00', quiet_hours_end: '23:59' });
    expect(ok(lock, { quiet_hours_start: '', quiet_hours_end: null })).toEqual({ quiet_hours_start: null, quiet_hours_end: null });
    for (const bad of ['24:00', '9:00', '12:60', '12h00', 900]) {
      expect(refused(lock, { quiet_hours_start: bad }).message).toBe('El campo Horario de descanso desde debe ser una hora HH:MM');
    }
  });

  test('colours: #RRGGBB, stored in lower case; logo: the SHA-256 of an uploaded one, or null', () => {
    const s = sectionValues(PHONE, 'screen');
    expect(ok(s, { primary_color: '#0B5ED7', background_color: '#FfFfFf' })).toEqual({ primary_color: '#0b5ed7', background_color: '#ffffff' });
    for (const bad of ['#fff', 'azul', '0b5ed7', '#0b5ed7ff', '', null]) {
      expect(refused(s, { primary_color: bad }).message).toBe('El campo Color principal debe ser un color #RRGGBB');
    }
    const hash = 'a'.repeat(64);
    expect(ok(s, { logo: hash })).toEqual({ logo: hash });
    // An emptied value is no logo, like the other values that may be empty.
    expect(ok(s, { logo: '' })).toEqual({ logo: null });
    for (const bad of ['A'.repeat(64), 'a'.repeat(63), 'logo.png', 1]) {
      expect(refused(s, { logo: bad }).message).toBe('El campo Logotipo debe ser un logotipo subido al portal');
    }
  });

  test('every message of a bad value names the Spanish label of its field', () => {
    const wrong: Record<SettingField['kind'], unknown[]> = {
      flag: ['x', 0, null, {}],
      integer: [-1_000, 1e6, 0.5, 'x', null, {}],
      choice: ['x', null, {}],
      text: [5, null, 'x'.repeat(5_000), 'a\u0000b', {}],
      url: ['http://x.mx', 'x', 5, {}],
      email: ['x', 5, {}],
      phone: ['x', 5, {}],
      time: ['x', 5, {}],
      color: ['x', null, 5, {}],
      logo: ['x', 5, {}],
    };
    let checked = 0;
    for (const t of TYPES) {
      for (const f of fieldsOf(t)) {
        for (const bad of wrong[f.kind]) {
          const r = sectionValues(t, f.section).safeParse({ [f.key]: bad });
          if (r.success) continue; // e.g. a long text that fits, or a value the field allows
          for (const issue of r.error.issues) {
            expect({ key: f.key, bad, message: issue.message }).toEqual({
              key: f.key,
              bad,
              message: expect.stringContaining(`El campo ${f.label} `),
            });
            expect(issue.path).toEqual([f.key]);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('settingsBody: PUT of a section', () => {
  const body = settingsBody(PHONE, 'lock');

  test('the version the page loaded (null: a group with no row yet) and the values', () => {
    expect(ok(body, { version: 7, values: { disable_sms: true } })).toEqual({ version: 7, values: { disable_sms: true } });
    expect(ok(body, { version: null, values: {} })).toEqual({ version: null, values: {} });
    expect(ok(body, { version: 0, values: {} })).toEqual({ version: 0, values: {} });
  });

  test('a missing or bad version, missing values, a bad value: the message names the field, the path leads to it', () => {
    const version = 'El campo Versión debe ser la versión cargada (un número entero) o null';
    expect(refused(body, { values: {} })).toEqual({ message: 'El campo Versión es obligatorio', path: 'version' });
    for (const bad of [-1, 1.5, '3', true]) expect(refused(body, { version: bad, values: {} })).toEqual({ message: version, path: 'version' });
    expect(refused(body, { version: 1 })).toEqual({ message: 'El campo Valores debe ser un objeto con los valores de la sección', path: 'values' });
    expect(refused(body, { version: 1, values: { offline_lock_days: 1 } })).toEqual({
      message: 'El campo Días sin conexión debe ser un número entero entre 3 y 200',
      path: 'values.offline_lock_days',
    });
    expect(refused(body, { version: 1, values: { disable_streaming: true } })).toEqual({
      message: 'El ajuste Deshabilitar streaming no pertenece a esta página ni a este tipo de dispositivo',
      path: 'values.disable_streaming',
    });
    for (const notAnObject of [null, [], 'x']) expect(refused(body, notAnObject).message).toBe('El cuerpo de la solicitud debe ser un objeto JSON');
  });

  test('a TV section refuses the phone-only settings, a phone section the TV-only ones', () => {
    expect(refused(settingsBody(TV, 'lock'), { version: 1, values: { disable_sms: true } }).path).toBe('values.disable_sms');
    expect(ok(settingsBody(TV, 'lock'), { version: 1, values: { disable_streaming: false } })).toEqual({
      version: 1,
      values: { disable_streaming: false },
    });
    expect(refused(settingsBody(PHONE, 'lock'), { version: 1, values: { disable_media_player: true } }).path).toBe('values.disable_media_player');
  });

  test('the scope query: no groupId is the global scope; a groupId is a positive integer', () => {
    expect(ok(settingsScopeQuery, {})).toEqual({});
    expect(ok(settingsScopeQuery, { groupId: '12' })).toEqual({ groupId: 12 });
    for (const bad of ['0', 'abc', '-1', '1.5', '99999999999']) {
      expect(refused(settingsScopeQuery, { groupId: bad })).toEqual({
        message: 'El parámetro Grupo debe ser un número entero entre 1 y 2147483647',
        path: 'groupId',
      });
    }
  });

  test('the API path segments and the logo address', () => {
    expect(typeSlug(PHONE)).toBe('smartphone');
    expect(typeSlug(TV)).toBe('tv');
    expect(logoUrl('a'.repeat(64))).toBe(`/agent/v1/logos/${'a'.repeat(64)}`);
  });
});

describe('businessAppBody', () => {
  const good = {
    name: '  Cobranza Móvil ',
    packageName: ' mx.financiera.cobranza ',
    versionName: '1.2.0',
    versionCode: 12,
    appType: 4,
    downloadUrl: 'https://descargas.financiera.mx/cobranza-1.2.0.apk',
    sha256: SHA,
  };

  test('trimmed, SHA-256 lower-cased, groups as sent (an unknown one is named by its position; the server stores each once), no groups by default', () => {
    expect(ok(businessAppBody, good)).toEqual({
      ...good,
      name: 'Cobranza Móvil',
      packageName: 'mx.financiera.cobranza',
      sha256: SHA.toLowerCase(),
      groupIds: [],
    });
    expect((ok(businessAppBody, { ...good, groupIds: [7, 3, 7, 1] }) as { groupIds: number[] }).groupIds).toEqual([7, 3, 7, 1]);
  });

  test('Android package names', () => {
    for (const p of ['com.a', 'mx.financiera.cobranza_v2', 'Com.Empresa.App'])
      expect(ok(businessAppBody, { ...good, packageName: p })).toMatchObject({ packageName: p });
    const message = 'El campo Nombre de paquete debe ser un nombre de paquete Android, por ejemplo com.empresa.app';
    for (const bad of ['cobranza', '1com.empresa', 'com.1empresa', 'com..empresa', 'com.empresa.', 'com.em-presa', 'com empresa.app', '']) {
      expect({ bad, ...refused(businessAppBody, { ...good, packageName: bad }) }).toEqual({ bad, message, path: 'packageName' });
    }
    expect(refused(businessAppBody, { ...good, packageName: `com.${'a'.repeat(252)}` }).message).toBe(
      'El campo Nombre de paquete admite como máximo 255 caracteres',
    );
  });

  test('https download, a SHA-256, an app type among the selectable ones, a positive version code', () => {
    expect(refused(businessAppBody, { ...good, downloadUrl: 'http://descargas.financiera.mx/a.apk' })).toEqual({
      message: 'El campo URL de descarga debe ser una dirección https válida',
      path: 'downloadUrl',
    });
    for (const bad of ['abc', SHA.slice(1), `${SHA}0`, 'g'.repeat(64)]) {
      expect(refused(businessAppBody, { ...good, sha256: bad })).toEqual({
        message: 'El campo SHA-256 debe ser un SHA-256 de 64 caracteres hexadecimales',
        path: 'sha256',
      });
    }
    for (const t of [2, 4, 5]) expect(ok(businessAppBody, { ...good, appType: t })).toMatchObject({ appType: t });
    for (const bad of [1, 3, 6, '4']) {
      expect(refused(businessAppBody, { ...good, appType: bad })).toEqual({
        message: 'El campo Tipo de app debe ser uno de: 2 (Macrolock), 4 (Downloader), 5 (Macrolock.TV)',
        path: 'appType',
      });
    }
    expect(refused(businessAppBody, { ...good, versionCode: 0 })).toEqual({
      message: 'El campo Código de versión debe ser un número entero positivo',
      path: 'versionCode',
    });
  });

  test('groups: positive ids, at most 100', () => {
    expect(refused(businessAppBody, { ...good, groupIds: [1, 0] })).toEqual({
      message: 'El campo Grupos debe ser un número entero positivo',
      path: 'groupIds.1',
    });
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    expect(refused(businessAppBody, { ...good, groupIds: many }).message).toBe('El campo Grupos debe ser una lista de como máximo 100 grupos');
    expect(refused(businessAppBody, { ...good, groupIds: 'todos' }).message).toBe('El campo Grupos debe ser una lista de como máximo 100 grupos');
  });

  test('missing fields are named by their labels', () => {
    expect(refused(businessAppBody, {})).toEqual({ message: 'El campo Nombre es obligatorio', path: 'name' });
    const { packageName: _p, ...noPackage } = good;
    expect(refused(businessAppBody, noPackage).message).toBe('El campo Nombre de paquete es obligatorio');
    const { sha256: _s, ...noSha } = good;
    expect(refused(businessAppBody, noSha).message).toBe('El campo SHA-256 es obligatorio');
  });
});

describe('lockAppBody', () => {
  const good = {
    versionName: 'Macrolock',
    versionApp: '3.5.0',
    appType: 2,
    downloadUrl: 'https://descargas.financiera.mx/macrolock-3.5.0.apk',
    sha256: SHA,
  };

  test('package name and release notes optional (empty → null), SHA-256 lower-cased', () => {
    expect(ok(lockAppBody, good)).toEqual({ ...good, sha256: SHA.toLowerCase(), packageName: null, releaseNotes: null });
    expect(ok(lockAppBody, { ...good, packageName: '', releaseNotes: '' })).toMatchObject({ packageName: null, releaseNotes: null });
    expect(ok(lockAppBody, { ...good, packageName: 'com.macrolock.agent', releaseNotes: ' Correcciones:\n- SIM \n' })).toMatchObject({
      packageName: 'com.macrolock.agent',
      releaseNotes: 'Correcciones:\n- SIM',
    });
  });

  test('each field refused with its label', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ versionName: '' }, 'versionName', 'El campo Nombre de versión no puede estar vacío'],
      [{ versionApp: 'x'.repeat(41) }, 'versionApp', 'El campo Versión admite como máximo 40 caracteres'],
      [{ appType: 9 }, 'appType', 'El campo Tipo de app debe ser uno de: 2 (Macrolock), 4 (Downloader), 5 (Macrolock.TV)'],
      [{ packageName: 'macrolock' }, 'packageName', 'El campo Nombre de paquete debe ser un nombre de paquete Android, por ejemplo com.empresa.app'],
      [{ downloadUrl: 'http://x.mx/a.apk' }, 'downloadUrl', 'El campo URL de descarga debe ser una dirección https válida'],
      [{ sha256: 'abc' }, 'sha256', 'El campo SHA-256 debe ser un SHA-256 de 64 caracteres hexadecimales'],
      [{ releaseNotes: 'x'.repeat(2001) }, 'releaseNotes', 'El campo Notas de la versión admite como máximo 2000 caracteres'],
      [{ releaseNotes: 'a\u0007b' }, 'releaseNotes', 'El campo Notas de la versión contiene caracteres no permitidos'],
    ];
    for (const [patch, path, message] of cases) expect(refused(lockAppBody, { ...good, ...patch })).toEqual({ message, path });
    // Not a text at all: the same message, never zod's own.
    for (const bad of [0, true, {}]) {
      expect(refused(lockAppBody, { ...good, packageName: bad })).toEqual({
        message: 'El campo Nombre de paquete debe ser un nombre de paquete Android, por ejemplo com.empresa.app',
        path: 'packageName',
      });
    }
    const { downloadUrl: _d, ...noUrl } = good;
    expect(refused(lockAppBody, noUrl)).toEqual({ message: 'El campo URL de descarga es obligatorio', path: 'downloadUrl' });
  });
});

test('the defaults of every section go through the API schema unchanged (what a first save of the page sends)', () => {
  for (const t of TYPES) {
    for (const s of sectionsOf(t)) {
      const values = Object.fromEntries(Object.entries(defaultsOf(t)).filter(([k]) => fieldsOf(t, s.key).some((f) => f.key === k)));
      expect(ok(settingsBody(t, s.key), { version: 1, values })).toEqual({ version: 1, values });
    }
  }
  expect(label('logo')).toBe('Logotipo');
});
