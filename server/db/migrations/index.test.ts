import fs from 'node:fs';
import path from 'node:path';
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
