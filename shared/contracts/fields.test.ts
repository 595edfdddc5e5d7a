import { canonicalTimeZone, timeZoneParam } from './fields';

test('canonicalTimeZone: any spelling of a zone Intl knows gives its name, each time; a zone Intl refuses gives undefined, each time', () => {
  for (let i = 0; i < 2; i++) {
    expect(canonicalTimeZone('america/mexico_city')).toBe('America/Mexico_City');
    expect(canonicalTimeZone('AMERICA/MEXICO_CITY')).toBe('America/Mexico_City');
    expect(canonicalTimeZone('America/Mexico_City')).toBe('America/Mexico_City');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('Marte/Olympus')).toBeUndefined();
    expect(canonicalTimeZone('')).toBeUndefined();
  }
});

test('timeZoneParam: canonicalised, empty is absent, a zone Intl refuses is a Spanish error naming the field', () => {
  const tz = timeZoneParam('Zona horaria');
  expect(tz.parse(' america/bogota ')).toBe('America/Bogota');
  expect(tz.parse('')).toBeUndefined();
  const bad = tz.safeParse('Marte/Olympus');
  expect(bad.success).toBe(false);
  expect(JSON.stringify(bad.error?.issues)).toContain('Zona horaria');
});
