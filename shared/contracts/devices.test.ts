import { FIELD_LABELS } from '../constants/fieldLabels';
import { deviceExportQuery, deviceFilter, deviceListQuery } from './devices';
import { bulkBody } from './jobs';
import { AGENT_VERSION_MAX } from '../constants/limits';

const Q = FIELD_LABELS.deviceFilter;
const messageOf = (input: unknown) => deviceListQuery.safeParse(input).error?.issues[0]?.message;

describe('the list filters the dashboards link to: inFlight, agentVersion, agentVersionNot', () => {
  test('inFlight: "true" and "false" become booleans; absent stays absent', () => {
    expect(deviceListQuery.parse({ inFlight: 'true' }).inFlight).toBe(true);
    expect(deviceListQuery.parse({ inFlight: 'false' }).inFlight).toBe(false);
    expect(deviceListQuery.parse({}).inFlight).toBeUndefined();
  });

  test.each(['', 'TRUE', '1', 'si', 'yes', ' true'])('inFlight %j is refused, the message naming "Comando en curso"', (value) => {
    expect(messageOf({ inFlight: value })).toBe(`El parámetro ${Q.inFlight} debe ser uno de: true, false`);
  });

  test('agentVersion and agentVersionNot: trimmed text; empty means no filter', () => {
    expect(deviceListQuery.parse({ agentVersion: ' 3.4.1 ', agentVersionNot: '1.8.0' })).toMatchObject({
      agentVersion: '3.4.1',
      agentVersionNot: '1.8.0',
    });
    const blank = deviceListQuery.parse({ agentVersion: '  ', agentVersionNot: '' });
    expect(blank.agentVersion).toBeUndefined();
    expect(blank.agentVersionNot).toBeUndefined();
    // As long as an agent may report (its contract admits 40 characters).
    expect(deviceListQuery.parse({ agentVersion: 'v'.repeat(AGENT_VERSION_MAX) }).agentVersion).toHaveLength(AGENT_VERSION_MAX);
  });

  test.each([
    ['agentVersion', Q.agentVersion],
    ['agentVersionNot', Q.agentVersionNot],
  ])('%s: too long or with control characters is refused, in Spanish, naming the field', (key, label) => {
    expect(messageOf({ [key]: 'v'.repeat(AGENT_VERSION_MAX + 1) })).toBe(
      `El parámetro ${label} debe ser un texto de como máximo ${AGENT_VERSION_MAX} caracteres`,
    );
    expect(messageOf({ [key]: '3.4\u00001' })).toBe(`El parámetro ${label} contiene caracteres no permitidos`);
    expect(messageOf({ [key]: ['3.4.1', '3.3.0'] })).toBe(`El parámetro ${label} debe ser un texto de como máximo ${AGENT_VERSION_MAX} caracteres`);
  });

  test('the labels are Spanish and distinct', () => {
    expect([Q.inFlight, Q.agentVersion, Q.agentVersionNot]).toEqual(['Comando en curso', 'Versión del agente', 'Versión del agente excluida']);
  });

  test('the export and a bulk selection by filter take the same fields', () => {
    const query = { inFlight: 'true', agentVersion: '3.4.1', agentVersionNot: '3.3.0' };
    expect(deviceFilter.parse(query)).toEqual({ inFlight: true, agentVersion: '3.4.1', agentVersionNot: '3.3.0' });
    expect(deviceExportQuery.parse({ ...query, tz: 'UTC' })).toMatchObject({ inFlight: true, agentVersion: '3.4.1', agentVersionNot: '3.3.0' });
    const bulk = bulkBody.parse({ selection: { filter: query }, payload: { action: 1 } });
    expect(bulk.selection.filter).toMatchObject({ inFlight: true, agentVersion: '3.4.1', agentVersionNot: '3.3.0' });
    expect(bulkBody.safeParse({ selection: { filter: { inFlight: 'maybe' } }, payload: { action: 1 } }).error?.issues[0]?.message).toBe(
      `El parámetro ${Q.inFlight} debe ser uno de: true, false`,
    );
  });
});
