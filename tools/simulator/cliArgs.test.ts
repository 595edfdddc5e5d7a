import { MAX_DEVICES, MAX_DURATION_SECONDS, isLoopbackHost, parseArgs, type SimulateArgs } from './cliArgs';

const ENV = { DEMO_PASSWORD: 'Demo-Portal-2026!' };

function ok(argv: string[], env: Record<string, string | undefined> = ENV): SimulateArgs {
  const parsed = parseArgs(argv, env);
  if (!parsed.ok || parsed.help) throw new Error(`expected arguments, got ${JSON.stringify(parsed)}`);
  return parsed.args;
}

function error(argv: string[], env: Record<string, string | undefined> = ENV): string {
  const parsed = parseArgs(argv, env);
  if (parsed.ok) throw new Error(`expected an error, got ${JSON.stringify(parsed)}`);
  return parsed.error;
}

describe('npm run simulate flags', () => {
  test('the documented command line, with the defaults of what it leaves out', () => {
    expect(ok(['--url', 'http://localhost:3000', '--devices', '500'])).toEqual({
      url: 'http://localhost:3000',
      devices: 500,
      durationSeconds: 120,
      offline: 0,
      reject: 0,
      simChange: 0,
      wait: 20,
      delayMs: [200, 1500],
      json: false,
      email: 'admin@demo.local',
      password: 'Demo-Portal-2026!',
      existing: false,
      allowRemote: false,
      scenario: true,
      token: null,
      seed: null,
      payments: null,
      apiKey: null,
    });
  });

  test('every flag', () => {
    const args = ok([
      '--url=http://127.0.0.1:8080/',
      '--devices=20000',
      '--duration',
      '3600',
      '--offline',
      '5%',
      '--reject=1%',
      '--sim-change',
      '0.5%',
      '--wait',
      '0',
      '--delay',
      '50-100',
      '--json',
      '--email',
      'inventario@demo.local',
      '--password',
      'Otra-Clave-1!',
      '--existing',
      '--seed',
      '7',
    ]);
    expect(args).toMatchObject({
      url: 'http://127.0.0.1:8080',
      devices: MAX_DEVICES,
      durationSeconds: MAX_DURATION_SECONDS,
      offline: 0.05,
      reject: 0.01,
      simChange: 0.005,
      wait: 0,
      delayMs: [50, 100],
      json: true,
      email: 'inventario@demo.local',
      password: 'Otra-Clave-1!',
      existing: true,
      seed: 7,
    });
  });

  test('the password comes from --password before DEMO_PASSWORD, and one of them is needed for the scenario', () => {
    expect(ok(['--url', 'http://localhost:3000', '--password', 'Clave-Propia-9!']).password).toBe('Clave-Propia-9!');
    expect(error(['--url', 'http://localhost:3000'], {})).toMatch(/Falta la contraseña del portal/);
  });

  test('without the scenario only agents run, with a token, and no password is needed', () => {
    expect(ok(['--url', 'http://localhost:3000', '--no-scenario', '--token', 'ABCD-EFGH-JKLM'], {})).toMatchObject({
      scenario: false,
      token: 'ABCD-EFGH-JKLM',
      password: null,
    });
    expect(error(['--url', 'http://localhost:3000', '--no-scenario'])).toMatch(/hace falta --token/);
    expect(error(['--url', 'http://localhost:3000', '--no-scenario', '--token', 'X', '--existing'])).toMatch(/--existing necesita el escenario/);
  });

  test('only this machine unless --allow-remote', () => {
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://127.1.2.3', 'http://[::1]:3000', 'http://portal.localhost']) {
      expect(ok(['--url', url]).url).toBe(new URL(url).origin);
    }
    expect(error(['--url', 'https://portal.example.mx'])).toBe(
      '--url apunta a portal.example.mx, que no es esta máquina: agrega --allow-remote si de verdad quieres simular contra otro servidor.',
    );
    expect(error(['--url', 'http://10.0.0.5:3000'])).toMatch(/no es esta máquina/);
    expect(ok(['--url', 'https://portal.example.mx', '--allow-remote'])).toMatchObject({ url: 'https://portal.example.mx', allowRemote: true });
  });

  test.each([
    [['--devices', '0'], '--devices 0 solo tiene sentido con --payments (sin dispositivos simulados, solo pagos).'],
    [['--devices', '20001'], '--devices debe ser un número entero entre 0 y 20000.'],
    [['--devices', '1e3'], '--devices debe ser un número entero entre 0 y 20000.'],
    [['--devices=-5'], '--devices debe ser un número entero entre 0 y 20000.'],
    [['--duration', '3601'], '--duration debe ser un número entero entre 1 y 3600.'],
    [['--duration', '0'], '--duration debe ser un número entero entre 1 y 3600.'],
    [['--wait', '26'], '--wait debe ser un número entero entre 0 y 25.'],
    [['--offline', '150%'], '--offline debe ser un porcentaje entre 0% y 100% (p. ej. 5% o 0.05).'],
    [['--reject', 'mucho'], '--reject debe ser un porcentaje entre 0% y 100% (p. ej. 5% o 0.05).'],
    [['--delay', '1500-200'], 'Los retardos deben escribirse como MIN-MAX en milisegundos (p. ej. 200-1500), con MIN ≤ MAX ≤ 60000.'],
    [['--delay', '100'], 'Los retardos deben escribirse como MIN-MAX en milisegundos (p. ej. 200-1500), con MIN ≤ MAX ≤ 60000.'],
    [['--seed', 'abc'], '--seed debe ser un número entero entre 0 y 2147483647.'],
  ])('%j is refused in Spanish', (flags, message) => {
    expect(error(['--url', 'http://localhost:3000', ...flags])).toBe(message);
  });

  test('a missing, malformed or non-http --url', () => {
    expect(error([])).toBe('Falta --url (p. ej. --url http://localhost:3000).');
    expect(error(['--url', 'localhost:3000'])).toBe('--url no es una URL http(s) válida: localhost:3000');
    expect(error(['--url', 'no es url'])).toMatch(/no es una URL http\(s\) válida/);
  });

  test('unknown flags, flags without their value and stray words are named in Spanish', () => {
    expect(error(['--url', 'http://localhost:3000', '--devicez', '5'])).toBe('Opción no reconocida: --devicez');
    expect(error(['--url'])).toBe('Opción no reconocida: --url necesita un valor');
    expect(error(['--url', 'http://localhost:3000', 'extra'])).toBe('Opción no reconocida: argumento sin opción extra');
  });

  test('--payments: bare, it takes the default rates; with rates, they must add up to 100 %; it needs an API key', () => {
    const url = ['--url', 'http://localhost:3000'];
    const key = { ...ENV, INTEGRATION_API_KEY: 'mlk_abc_secreto' };
    expect(ok([...url, '--payments'], key)).toMatchObject({ payments: { onTime: 0.7, late: 0.2, never: 0.1 }, apiKey: 'mlk_abc_secreto' });
    expect(ok([...url, '--payments', '--devices', '0'], key)).toMatchObject({ payments: { onTime: 0.7, late: 0.2, never: 0.1 }, devices: 0 });
    expect(ok([...url, '--payments', 'on-time=50%,late=0.5', '--api-key', 'mlk_x_y'])).toMatchObject({
      payments: { onTime: 0.5, late: 0.5, never: 0 },
      apiKey: 'mlk_x_y',
    });
    expect(ok([...url, '--payments=never=1'], key).payments).toEqual({ onTime: 0, late: 0, never: 1 });
    expect(error([...url, '--payments', 'on-time=0.7,late=0.2'], key)).toBe('Las proporciones de --payments deben sumar 100 % (suman 90 %).');
    expect(error([...url, '--payments', 'puntual=1'], key)).toBe(
      '--payments debe escribirse como on-time=0.7,late=0.2,never=0.1 (fracciones o porcentajes; se recibió «puntual=1»).',
    );
    expect(error([...url, '--payments', 'on-time=1,on-time=0'], key)).toMatch(/^--payments debe escribirse/);
    expect(error([...url, '--payments'])).toMatch(/^--payments necesita una clave de API/);
    expect(error([...url, '--payments', '--no-scenario', '--token', 'T'], { INTEGRATION_API_KEY: 'k' })).toBe(
      '--payments lee la cartera con la cuenta del portal: usa --password o define DEMO_PASSWORD.',
    );
  });

  test('--help', () => {
    expect(parseArgs(['--help'])).toEqual({ ok: true, help: true });
    expect(parseArgs(['-h'])).toEqual({ ok: true, help: true });
  });

  test('loopback hosts', () => {
    expect(['localhost', 'LOCALHOST', '127.0.0.1', '127.255.0.9', '[::1]', '::1', 'app.localhost'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '192.168.1.2', 'localhost.example.mx', '128.0.0.1', '::2', 'example.com'].some(isLoopbackHost)).toBe(false);
  });
});
