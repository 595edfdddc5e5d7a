import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkTestFiles, ignoredTestFiles, outsidePaths, ROOT } from './checkTestFiles';

/** Up one folder: the samples are built, so this file holds no such literal itself. */
const UP = ['.', '.'].join('');
const q = (p: string) => `'${p}'`;

describe('outsidePaths', () => {
  test('a relative path that leaves the repository from the file’s folder is reported', () => {
    const fixture = `${UP}/${UP}/${UP}/shared/fixtures/cognito-srp-vectors.json`;
    const text = `const F = path.resolve(__dirname, ${q(fixture)});`;
    expect(outsidePaths('/repo', 'server/identity/srp.test.ts', text)).toEqual([fixture]);
    expect(outsidePaths('/repo', 'tests/x.test.ts', `readFileSync(\`${UP}/${UP}/elsewhere\`)`)).toEqual([`${UP}/${UP}/elsewhere`]);
  });

  test('imports and paths that stay inside are not', () => {
    const text = [
      `import { M } from ${q(`${UP}/${UP}/shared/messages`)};`,
      `import type { X } from ${q(`${UP}/server/app`)};`,
      "const fixture = path.join(__dirname, 'fixtures', 'v.json');",
      `const root = path.resolve(__dirname, ${q(`${UP}/${UP}`)});`,
    ].join('\n');
    expect(outsidePaths('/repo', 'tests/integration/a.test.ts', text)).toEqual([]);
  });
});

describe('ignoredTestFiles', () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  const write = (file: string, text = '') => {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  };

  beforeEach(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ignored-'));
    git('init', '-q');
    write('tests/dist/sigterm.test.ts');
    write('dist/server.js');
    write('node_modules/pkg/own.test.ts');
  });
  afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

  test('`dist/` also hides tests/dist/*.test.ts (never node_modules)', () => {
    write('.gitignore', 'node_modules/\ndist/\n');
    expect(ignoredTestFiles(repo)).toEqual(['tests/dist/sigterm.test.ts']);
  });

  test('`/dist/` hides only the build folder', () => {
    write('.gitignore', 'node_modules/\n/dist/\n');
    expect(ignoredTestFiles(repo)).toEqual([]);
  });

  test('a tracked test where the rules would hide its siblings is reported', () => {
    write('.gitignore', 'node_modules/\n/dist/\n');
    git('add', 'tests/dist/sigterm.test.ts');
    write('.gitignore', 'node_modules/\ndist/\n');
    expect(ignoredTestFiles(repo)).toEqual(['tests/dist/sigterm.test.ts']);
  });
});

describe('this repository', () => {
  test('every jest project has tracked tests, no test file is ignored, nothing names a path outside it', async () => {
    expect(await checkTestFiles(ROOT)).toEqual([]);
  }, 60_000);
});
