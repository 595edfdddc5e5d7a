import fs from 'node:fs';
import path from 'node:path';
import { SETTLED_LIFECYCLES, baseStatusSql } from '../../../shared/deviceStatus';
import { migrations } from './index';

describe('migration list', () => {
  test('lists every .sql file of the folder, in numeric order, with no gaps', () => {
    const files = fs
      .readdirSync(__dirname)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .map((f) => f.replace(/\.sql$/, ''));
    expect(migrations.map((m) => m.id)).toEqual(files);
    migrations.forEach((m, i) => {
      expect(m.id).toMatch(/^\d{4}_[a-z0-9_]+$/);
      expect(Number(m.id.slice(0, 4))).toBe(i + 1);
      expect(m.sql).toBe(fs.readFileSync(path.join(__dirname, `${m.id}.sql`), 'utf8'));
    });
  });
});

describe('0007_list_indexes', () => {
  test('the CHECK of settled devices lists the SETTLED_LIFECYCLES of shared/deviceStatus.ts', () => {
    const sql = migrations.find((m) => m.id === '0007_list_indexes')!.sql;
    expect(sql).toContain(`CHECK (lifecycle NOT IN (${SETTLED_LIFECYCLES.map((l) => `'${l}'`).join(', ')}) OR last_seen_at IS NOT NULL)`);
  });
});

describe('devices.base_status', () => {
  test('the last migration that defines it (0010_agent) generates it from the rule list of shared/deviceStatus.ts', () => {
    const defining = migrations.filter((m) => m.sql.includes('base_status smallint GENERATED ALWAYS AS'));
    expect(defining.at(-1)!.id).toBe('0010_agent');
    expect(defining.at(-1)!.sql).toContain(`ADD COLUMN base_status smallint GENERATED ALWAYS AS (${baseStatusSql()}) STORED`);
  });
});
