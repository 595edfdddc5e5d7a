import fs from 'node:fs';
import path from 'node:path';
import { ROOT, trackedFiles } from '../../scripts/checkTestFiles';

/** The numbered sections of docs/reference.md (`## 4. Device statuses and actions`). */
const SECTIONS = new Set([...fs.readFileSync(path.join(ROOT, 'docs/reference.md'), 'utf8').matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1])));

/** The section sign, escaped so that this file's code holds none. */
const SIGN = '\u00a7';

/** Every line of a tracked text file that holds a section sign, with where it is. */
const lines = trackedFiles(ROOT)
  .filter((f) => !/\.(png|jpe?g|ico|gz|br|tar|tgz|woff2?)$/.test(f) && fs.existsSync(path.join(ROOT, f)))
  .flatMap((f) =>
    fs
      .readFileSync(path.join(ROOT, f), 'utf8')
      .split('\n')
      .flatMap((text, i) => (text.includes(SIGN) ? [{ at: `${f}:${i + 1}`, text }] : [])),
  );

/** A citation of the reference: "reference §4", a list that goes on ("reference §2, §5, §8"), or the form itself ("reference §N"). */
const CITATION = /reference (\u00a7(?:\d+|N)(?:(?:, | and )\u00a7\d+)*)/gi;
/** Public standards keep their own numbering. */
const STANDARD = /RFC \d+ \u00a7[\d.]+/g;

test('docs/reference.md has the numbered sections code cites', () => {
  expect([...SECTIONS]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('every "reference §N" names a section of docs/reference.md', () => {
  const cited = lines.flatMap(({ at, text }) =>
    [...text.matchAll(CITATION)].flatMap((m) => [...m[1]!.matchAll(/\u00a7(\d+)/g)].map((n) => ({ at, section: Number(n[1]) }))),
  );
  expect(cited.length).toBeGreaterThan(50);
  expect(cited.filter((c) => !SECTIONS.has(c.section))).toEqual([]);
});

test('a section sign is a citation of the reference or of a public standard, never of a document the repository lacks', () => {
  const stray = lines.filter(({ text }) => text.replace(CITATION, '').replace(STANDARD, '').includes(SIGN)).map((l) => `${l.at} ${l.text.trim()}`);
  expect(stray).toEqual([]);
});
