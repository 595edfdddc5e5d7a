/**
 * `npm run check:tests` (run by .ci/run before `npm test`): the tests a clone runs are the
 * tests in the repository.
 *
 * - every jest project of jest.config.js matches at least one tracked test file (a project
 *   whose folder is git-ignored, or whose tests were never committed, fails here instead of
 *   passing with nothing to run);
 * - no `*.test.ts` / `*.test.tsx` file is git-ignored, and no tracked one sits where the
 *   ignore rules would hide its new siblings;
 * - no tracked source names a path outside the repository (a clone has nothing beside it).
 *
 * Prints each problem and exits 1 when there is any.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = path.resolve(import.meta.dirname, '..');

export interface Problem {
  check: 'emptyProject' | 'ignoredTest' | 'outsidePath';
  detail: string;
}

const TEST_FILE = /\.test\.tsx?$/;
const SOURCE_FILE = /\.(ts|tsx|js|mjs|cjs)$/;

function git(root: string, args: string[]): string[] {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\n')
    .filter(Boolean);
}

/** Files git tracks (the index: what a commit of the working tree holds), relative, with '/'. */
export const trackedFiles = (root: string): string[] => git(root, ['ls-files', '--cached']);

/** Test files the ignore rules hide: untracked ones and tracked ones that match a rule. */
export function ignoredTestFiles(root: string): string[] {
  const untracked = git(root, ['ls-files', '--others', '--ignored', '--exclude-standard', '--', '*.test.ts', '*.test.tsx', ':(exclude)node_modules']);
  const tracked = git(root, ['ls-files', '--cached', '--ignored', '--exclude-standard']).filter((f) => TEST_FILE.test(f));
  return [...untracked, ...tracked].filter((f) => !f.split('/').includes('node_modules')).sort();
}

/** The display names of jest.config.js's projects. */
export async function jestProjectNames(root: string): Promise<string[]> {
  const config = (await import(pathToFileURL(path.join(root, 'jest.config.js')).href)) as { default: { projects: { displayName: string }[] } };
  return config.default.projects.map((p) => p.displayName);
}

/** The files a project's testMatch selects, as jest itself resolves them (relative to root). */
export function jestProjectFiles(root: string, project: string): string[] {
  const out = execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/jest/bin/jest.js'), '--listTests', '--json', '--selectProjects', project],
    {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  return (JSON.parse(out.slice(out.indexOf('['))) as string[]).map((f) => path.relative(root, f).split(path.sep).join('/'));
}

/**
 * Relative path literals (a string that starts with two dots and a slash) in a source file
 * that resolve outside the repository, read from the file's own folder (`path.resolve` of
 * `__dirname` and such a string, imports).
 */
export function outsidePaths(root: string, file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(['"`])(\.\.\/[^'"`\s]*)\1/g)) {
    const resolved = path.resolve(root, path.dirname(file), m[2]!);
    const rel = path.relative(root, resolved);
    if (rel.startsWith('..') || path.isAbsolute(rel)) found.push(m[2]!);
  }
  return found;
}

export async function checkTestFiles(root = ROOT): Promise<Problem[]> {
  const problems: Problem[] = [];
  const tracked = trackedFiles(root);
  const trackedSet = new Set(tracked);

  for (const project of await jestProjectNames(root)) {
    const files = jestProjectFiles(root, project).filter((f) => trackedSet.has(f));
    if (files.length === 0) problems.push({ check: 'emptyProject', detail: `el proyecto de jest "${project}" no encuentra ningún test versionado` });
  }
  for (const file of ignoredTestFiles(root)) {
    problems.push({ check: 'ignoredTest', detail: `${file} está ignorado por .gitignore (un clon no lo tendría)` });
  }
  for (const file of tracked) {
    if (!SOURCE_FILE.test(file) || file.split('/').includes('node_modules')) continue;
    const full = path.join(root, file);
    if (!fs.existsSync(full)) continue; // deleted in the working tree, not yet committed
    for (const p of outsidePaths(root, file, fs.readFileSync(full, 'utf8'))) {
      problems.push({ check: 'outsidePath', detail: `${file} nombra ${p}, fuera del repositorio` });
    }
  }
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void checkTestFiles().then((problems) => {
    for (const p of problems) console.error(`check:tests: ${p.detail}`);
    if (problems.length > 0) process.exit(1);
    console.log('check:tests: cada proyecto de jest tiene tests versionados; ningún test ignorado; nada fuera del repositorio');
  });
}
