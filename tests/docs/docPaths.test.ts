import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scripts/checkTestFiles';

/** The documents whose readers follow the paths they name. */
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : []))];

/**
 * A repository path: a top-level folder of the repository and what follows it, up to a character
 * no path here uses. Not after a word, a dot, a slash or an @ (a URL's or a package's segments).
 */
const REPO_PATH = /(?<![\w./@-])((?:server|client|shared|tools|scripts|tests|helm|docs)\/[\w.*{}<>,/-]*[\w*}>/])/g;
/** A placeholder or a glob (`server/api/<resource>/`, `server/db/migrations/*.sql`): only its folder is checked. */
const PATTERN = /[*{}<>,]/;
/** A Markdown link's target. */
const LINK = /\]\(([^)\s]+)\)/g;

/** What a document cites on a line, and the path (relative to the repository) that must exist for it. */
interface Citation {
  at: string;
  cited: string;
  checked: string;
}

function citations(doc: string, find: (line: string) => { cited: string; checked: string }[]): Citation[] {
  const lines = fs.readFileSync(path.join(ROOT, doc), 'utf8').split('\n');
  return lines.flatMap((line, i) => find(line).map((c) => ({ at: `${doc}:${i + 1}`, ...c })));
}

/** Each repository path a document names; for a pattern, the folder before its first placeholder. */
const pathsIn = (doc: string) =>
  citations(doc, (line) =>
    [...line.matchAll(REPO_PATH)].map((m) => {
      const cited = m[1]!;
      const special = cited.search(PATTERN);
      const checked = special < 0 ? cited : cited.slice(0, cited.lastIndexOf('/', special) + 1);
      return { cited, checked: checked.replace(/\/$/, '') };
    }),
  );

/** The relative targets of a document's Markdown links (not URLs, not anchors), resolved from its folder. */
const linksIn = (doc: string) =>
  citations(doc, (line) =>
    [...line.matchAll(LINK)]
      .map((m) => m[1]!)
      .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'))
      .map((target) => ({ cited: target, checked: path.posix.join(path.posix.dirname(doc), target.split('#')[0]!) })),
  );

const missing = (found: Citation[]) => found.filter((c) => !fs.existsSync(path.join(ROOT, c.checked))).map((c) => `${c.at} ${c.cited}`);

describe.each(DOCS)('%s', (doc) => {
  test('every repository path it names exists', () => {
    expect(missing(pathsIn(doc))).toEqual([]);
  });

  test('every relative link it holds leads to a file of the repository', () => {
    expect(missing(linksIn(doc))).toEqual([]);
  });
});

test('the check reads the documents and fails on a path that is not there', () => {
  expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/reference.md']));
  expect(pathsIn('docs/architecture.md').length).toBeGreaterThan(20);
  const sample = 'see `server/devices/gone.ts`, server/db/migrations/*.sql, https://example.com/server/x and @scope/server/y';
  expect([...sample.matchAll(REPO_PATH)].map((m) => m[1])).toEqual(['server/devices/gone.ts', 'server/db/migrations/*.sql']);
  expect(missing([{ at: 'x:1', cited: 'server/devices/gone.ts', checked: 'server/devices/gone.ts' }])).toEqual(['x:1 server/devices/gone.ts']);
});
