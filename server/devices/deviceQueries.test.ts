import { DEVICE_STATUS } from '../../shared/constants/domain';
import { deviceFilter } from '../../shared/contracts/devices';
import { OFFLINE_OVERLAID } from '../../shared/deviceStatus';
import fs from 'node:fs';
import path from 'node:path';
import { IN_FLIGHT_STATUSES, deviceWhere, inFlightSql, keyPrefixOf } from './deviceQueries';
import { countersWhere } from './deviceRepository';

const CUTOFF = new Date('2026-01-01T00:00:00Z');

test('the in-flight statuses are those the status rules reach through a pending action, none of them overlaid by "Sin conexión"', () => {
  expect([...IN_FLIGHT_STATUSES].sort((a, b) => a - b)).toEqual(
    [
      DEVICE_STATUS.bloqueando,
      DEVICE_STATUS.desbloqueando,
      DEVICE_STATUS.liberando,
      DEVICE_STATUS.configurando,
      DEVICE_STATUS.TEMPORARY_UNLOCKING,
    ].sort((a, b) => a - b),
  );
  expect(IN_FLIGHT_STATUSES.filter((s) => OFFLINE_OVERLAID.includes(s))).toEqual([]);
});

test("the migrations' in-flight index predicates are the predicate the queries generate (the planner matches them as text)", () => {
  const dir = path.resolve(__dirname, '../db/migrations');
  const found: string[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    // Every base_status list that names an in-flight status.
    for (const m of sql.matchAll(/base_status (NOT )?IN \(([\d, ]+)\)/g)) {
      const codes = m[2]!.split(',').map((c) => Number(c.trim()));
      if (!codes.some((c) => (IN_FLIGHT_STATUSES as readonly number[]).includes(c))) continue;
      found.push(file);
      expect({ file, predicate: m[0] }).toEqual({ file, predicate: inFlightSql(m[1] === undefined, 'base_status') });
    }
  }
  // The partial indexes of 0013, 0021 and 0022.
  expect(new Set(found)).toEqual(new Set(['0013_dashboard.sql', '0021_list_indexes_without_in_flight.sql', '0022_in_flight_filters.sql']));
  expect(found).toHaveLength(18);
});

test('inFlight is answered by the counters (no clock); an agent version never is', () => {
  const counted = countersWhere(deviceFilter.parse({ stage: 'enrolled', deviceType: '1', inFlight: 'true' }))!;
  expect(counted.toString()).toContain(`base_status IN (${IN_FLIGHT_STATUSES.join(', ')})`);
  expect(countersWhere(deviceFilter.parse({ inFlight: 'false' }))!.toString()).toContain(`base_status NOT IN (${IN_FLIGHT_STATUSES.join(', ')})`);
  expect(countersWhere(deviceFilter.parse({ agentVersion: '3.4.1' }))).toBeUndefined();
  expect(countersWhere(deviceFilter.parse({ inFlight: 'true', agentVersionNot: '3.4.1' }))).toBeUndefined();
});

test('the list conditions: values travel as parameters, the cutoff is not one of them', () => {
  const where = deviceWhere(deviceFilter.parse({ inFlight: 'true', agentVersion: "3.4.1'; --", agentVersionNot: '3.3.0' }), CUTOFF);
  expect(where.toString()).toContain(`d.base_status IN (${IN_FLIGHT_STATUSES.join(', ')})`);
  expect(where.toString()).toContain('d.agent_version = $1');
  expect(where.toString()).toContain('d.agent_version IS NOT NULL AND d.agent_version <> $2');
  expect(where.params).toEqual(["3.4.1'; --", '3.3.0']);
});

test('a search: digits alone are a prefix; otherwise each word with a digit or without letters is a substring, the words of letters go to the word index', () => {
  const digits = deviceWhere(deviceFilter.parse({ search: '3541' }), CUTOFF);
  expect(digits.params).toEqual(['3541%']);
  expect(digits.toString()).not.toContain('search_words');
  const words = deviceWhere(deviceFilter.parse({ search: 'Begoña  IBÁÑEZ cr-2026 %' }), CUTOFF);
  // The reference §5 input's rule (ñ removed) before the words are split; the folding is the database's.
  expect(words.params).toEqual(['%cr-2026%', '%\\%%', 'begoa ibáez']);
  expect(words.conditions).toEqual([
    'd.deleted_at IS NULL',
    'd.id IN (SELECT s.device_id FROM device_search s WHERE s.search_text LIKE search_fold($1) AND s.search_text LIKE search_fold($2) AND s.search_words @@ search_words_query($3))',
  ]);
  const noLetters = deviceWhere(deviceFilter.parse({ search: 'SN-7 2' }), CUTOFF);
  expect(noLetters.toString()).not.toContain('search_words');
  expect(noLetters.params).toEqual(['%sn-7%', '%2%']);
});

test('a search of exactly four digits, with nothing but the stage besides, is read from the key prefixes', () => {
  const of = (q: Record<string, string>) => keyPrefixOf(deviceFilter.parse(q));
  expect(of({ search: '3555' })).toBe('3555');
  expect(of({ search: ' 3555 ', stage: 'enrolled' })).toBe('3555');
  expect(of({ search: '3555', stage: 'preEnrolled' })).toBe('3555');
  // Other lengths, other characters, other filters: the search of the devices.
  for (const search of ['355', '35551', '35a5', '35-5']) expect(of({ search })).toBeUndefined();
  expect(of({ stage: 'enrolled' })).toBeUndefined();
  const others: Record<string, string>[] = [
    { status: '3' },
    { deviceType: '1' },
    { groupId: 'none' },
    { inFlight: 'true' },
    { agentVersion: '3.3.0' },
    { agentVersionNot: '3.4.1' },
  ];
  for (const other of others) expect(of({ search: '3555', stage: 'enrolled', ...other })).toBeUndefined();
});
