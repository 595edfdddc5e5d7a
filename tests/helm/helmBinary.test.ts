/**
 * The chart against a real helm binary (`npm run test:helm`, where helm exists): helm lint
 * accepts it, and `helm template` renders exactly what the offline renderer of
 * tests/helpers/helmTemplate.ts renders, so the always-run chart tests stand on solid ground.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseManifests, renderChart } from '../helpers/helmTemplate';

type Dict = Record<string, unknown>;

const CHART_DIR = path.resolve(__dirname, '../../helm/portal');
const EXTERNAL = { database: { existingSecret: 'portal-db' } } as const;

function render(values: Dict) {
  const chart = renderChart(CHART_DIR, { values, releaseName: 'acme', namespace: 'portal' });
  const byFile: Record<string, Dict[]> = {};
  for (const [file, text] of Object.entries(chart.files)) byFile[file] = parseManifests(text);
  return { byFile };
}


/** The helm binary: $HELM_BIN, else `helm` on the PATH. This suite needs one: it fails without. */
function findHelm(): string {
  for (const candidate of [process.env['HELM_BIN'], 'helm']) {
    if (!candidate) continue;
    const probe = spawnSync(candidate, ['version', '--short'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  throw new Error('npm run test:helm necesita helm: instálalo o indica su ruta en HELM_BIN');
}

const HELM = findHelm();

describe(`helm binary (${HELM})`, () => {
  const itHelm = it;
  let tmp = '';
  beforeAll(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'portal-chart-'));
  });
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const helm = (args: string[], values: Dict) => {
    const file = path.join(tmp, `values-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(values));
    return spawnSync(HELM!, [...args, '-f', file], { encoding: 'utf8' });
  };

  const cases: [string, Dict][] = [
    ['default values', {}],
    ['an external database with 3 replicas', { ...EXTERNAL, replicaCount: 3 }],
    [
      'an external database with autoscaling, ingress and secrets',
      {
        ...EXTERNAL,
        autoscaling: { enabled: true, targetMemoryUtilizationPercentage: 80 },
        ingress: { enabled: true, className: 'nginx', tls: [{ secretName: 'portal-tls', hosts: ['portal.example.com'] }] },
        cognito: { existingSecret: 'portal-cognito' },
        shutdown: { preStopSleepSeconds: 3 },
        extraEnv: [{ name: 'BOOTSTRAP_ADMIN_PASSWORD', valueFrom: { secretKeyRef: { name: 'boot', key: 'password' } } }],
      },
    ],
  ];

  itHelm.each(cases)('helm lint accepts %s', (_label, values) => {
    const res = helm(['lint', CHART_DIR, '--strict'], values);
    expect(res.stderr + res.stdout).toMatch(/0 chart\(s\) failed/);
    expect(res.status).toBe(0);
  });

  itHelm.each(cases)('helm template renders the same objects as the offline renderer for %s', (_label, values) => {
    const res = helm(['template', 'acme', CHART_DIR, '--namespace', 'portal'], values);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const fromHelm: Record<string, Dict[]> = {};
    for (const part of res.stdout.split(/^---\n/m)) {
      const m = /^# Source: portal\/(\S+)\n([\s\S]*)$/.exec(part);
      if (m) fromHelm[m[1]!] = parseManifests(m[2]!);
    }
    const mine = render(values).byFile;
    const nonEmpty = Object.fromEntries(Object.entries(mine).filter(([, docs]) => docs.length > 0));
    expect(fromHelm).toEqual(nonEmpty);
  });

  itHelm('helm refuses several replicas in embedded mode', () => {
    const res = helm(['template', 'acme', CHART_DIR], { replicaCount: 3 });
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/existingSecret/);
  });
});

