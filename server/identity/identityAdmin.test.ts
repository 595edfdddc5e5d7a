import { execFileSync } from 'node:child_process';
import { checkPasswordPolicy } from './cognitoErrors';
import { PASSWORD_SYMBOLS, generatePassword } from './identityAdmin';

const passwords = Array.from({ length: 2000 }, () => generatePassword());

test('a generated password satisfies the policy and keeps 16 characters of a 64-character alphabet', () => {
  for (const p of passwords) expect(checkPasswordPolicy(p)).toHaveLength(16);
  // 32,000 draws over 64 characters: every one of them shows up (the chance one is missing is below 1e-200).
  expect(new Set(passwords.join('')).size).toBe(64);
});

test('a generated password pasted unquoted into sh, bash or zsh stays itself', () => {
  const shells = ['sh', 'bash', 'zsh'].filter((sh) => {
    try {
      execFileSync(sh, ['-c', 'true']);
      return true;
    } catch {
      return false;
    }
  });
  expect(shells).toContain('sh');
  // Each symbol at the start, inside and at the end of a word, as an assignment and as an argument.
  const samples = [...PASSWORD_SYMBOLS].map((s) => `${s}Ab3${s}x${s}`).concat(passwords.slice(0, 50));
  for (const sh of shells) {
    const script = samples.map((p) => `DEMO_PASSWORD=${p}; printf '%s\\n' "$DEMO_PASSWORD" ${p}`).join('\n');
    const out = execFileSync(sh, ['-c', script], { encoding: 'utf8' }).trimEnd().split('\n');
    expect(out).toEqual(samples.flatMap((p) => [p, p]));
  }
});
