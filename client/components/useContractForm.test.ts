import fs from 'node:fs';
import path from 'node:path';

const clientDir = path.join(__dirname, '..');
const sources = fs
  .readdirSync(clientDir, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
  .map((f) => ({ file: f, text: fs.readFileSync(path.join(clientDir, f), 'utf8') }));

test('the forms over a shared contract are found', () => {
  const users = sources
    .filter(({ text }) => text.includes('useContractForm(') || /useContractForm<[^>]+>\(/.test(text))
    .map((s) => path.basename(s.file));
  expect(users).toEqual(expect.arrayContaining(['AdminForm.tsx', 'RoleForm.tsx', 'DeviceForm.tsx', 'ActionPayloadForm.tsx', 'GroupForm.tsx']));
});

test('one way to build a form over a contract: no form sets up its own zod resolver or validation mode', () => {
  const offenders = sources
    .filter(({ file }) => path.basename(file) !== 'useContractForm.ts')
    .filter(({ text }) => /zodResolver\(|reValidateMode:|\bmode: '(on[A-Z]|all)/.test(text))
    .map(({ file }) => file);
  expect(offenders).toEqual([]);
});
