import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scripts/checkTestFiles';
import { findRoute } from '../../shared/constants/routes';

/** What a person reads: the documents, the portal's Spanish texts, the scripts' output. */
const READ = ['README.md', 'docs', 'shared', 'scripts', 'client', 'tools'];

function files(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (fs.statSync(abs).isFile()) return [rel];
  return fs.readdirSync(abs).flatMap((f) => (/\.test\.tsx?$/.test(f) ? [] : /\.(md|tsx?)$/.test(f) || !f.includes('.') ? files(`${rel}/${f}`) : []));
}

test('the dashboards have one name, the menu’s: Dashboard (never “tablero”)', () => {
  expect(findRoute('/dashboard')?.title).toBe('Dashboard');
  const hits = READ.flatMap(files).flatMap((f) =>
    fs
      .readFileSync(path.join(ROOT, f), 'utf8')
      .split('\n')
      .flatMap((line, i) => (/\btableros?\b/i.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(hits).toEqual([]);
});
