/**
 * The import boundaries of eslint.config.js (import/no-restricted-paths), checked with ESLint
 * itself: imports that cross a boundary are errors, the allowed directions are not.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Case {
  /** Where the importing file would sit (it need not exist). */
  file: string;
  code: string;
}

/** ESLint runs in its own Node process (as `npm run lint` does), on every case at once. */
function restrictedPathErrors(cases: Case[]): string[][] {
  const script = `
    const { ESLint } = await import('eslint');
    const path = await import('node:path');
    const cases = JSON.parse(process.argv[1]);
    const eslint = new ESLint({ cwd: process.cwd() });
    const out = [];
    for (const c of cases) {
      const [result] = await eslint.lintText(c.code, { filePath: path.join(process.cwd(), c.file) });
      out.push(result.messages.filter((m) => m.ruleId === 'import/no-restricted-paths' || m.fatal).map((m) => m.ruleId ?? m.message));
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cases)], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as string[][];
}

// Real modules on each side: an import that does not resolve is not checked by the rule.
const TARGETS = [
  'server/errors.ts',
  'shared/messages.ts',
  'client/features/inventory/DevicesPage.tsx',
  'client/features/login/LoginPage.tsx',
  'client/components/EmptyValue.tsx',
];

describe('import boundaries (eslint.config.js)', () => {
  test('the modules the cases import exist', () => {
    for (const t of TARGETS) expect(fs.existsSync(path.join(ROOT, t))).toBe(true);
  });

  test('an import across a boundary is an error', () => {
    const crossing: Case[] = [
      { file: 'shared/probe.ts', code: "import { AppError } from '../server/errors';\nexport const x = AppError;\n" },
      { file: 'shared/contracts/probe.ts', code: "export { Value } from '../../client/components/EmptyValue';\n" },
      { file: 'client/api/probe.ts', code: "import type { AppError } from '../../server/errors';\nexport type X = AppError;\n" },
      { file: 'client/features/login/probe.ts', code: "export const page = () => import('../inventory/DevicesPage');\n" },
      { file: 'client/features/inventory/probe.ts', code: "import LoginPage from '../login/LoginPage';\nexport const x = LoginPage;\n" },
      { file: 'client/components/probe.ts', code: "import DevicesPage from '../features/inventory/DevicesPage';\nexport const x = DevicesPage;\n" },
    ];
    const errors = restrictedPathErrors(crossing);
    crossing.forEach((c, i) => expect({ file: c.file, errors: errors[i] }).toEqual({ file: c.file, errors: ['import/no-restricted-paths'] }));
  });

  test('the allowed directions are not', () => {
    const allowed: Case[] = [
      { file: 'client/features/inventory/probe.ts', code: "import DevicesPage from './DevicesPage';\nexport const x = DevicesPage;\n" },
      { file: 'client/features/login/probe.ts', code: "import { Value } from '../../components/EmptyValue';\nexport const x = Value;\n" },
      { file: 'client/app/probe.ts', code: "export const page = () => import('../features/login/LoginPage');\n" },
      { file: 'client/components/probe.ts', code: "import * as M from '../../shared/messages';\nexport const x = M;\n" },
      {
        file: 'server/ssr/probe.ts',
        code: "import DevicesPage from '../../client/features/inventory/DevicesPage';\nexport const x = DevicesPage;\n",
      },
      { file: 'tests/helpers/probe.ts', code: "import { AppError } from '../../server/errors';\nexport const x = AppError;\n" },
    ];
    const errors = restrictedPathErrors(allowed);
    allowed.forEach((c, i) => expect({ file: c.file, errors: errors[i] }).toEqual({ file: c.file, errors: [] }));
  });
});
