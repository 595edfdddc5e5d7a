/**
 * Checks of the container image definition and the Helm chart in helm/portal that
 * need no helm: the values schema, the values referenced by the templates, and the
 * Dockerfile structure. What helm renders is tested in helm.test.ts with the real helm.
 */
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { isMap, parse as parseYaml, parseDocument } from 'yaml';
import { envSchema } from '../../server/config';
import { CHART_DIR, REPO_ROOT } from '../helpers/helm';

type Dict = Record<string, unknown>;

const ROOT = REPO_ROOT;
const TEMPLATE_DIR = path.join(CHART_DIR, 'templates');
const read = (...parts: string[]): string => readFileSync(path.join(ROOT, ...parts), 'utf8');

const valuesText = read('helm', 'portal', 'values.yaml');
const defaultValues = parseYaml(valuesText) as Dict;
const schema = JSON.parse(read('helm', 'portal', 'values.schema.json')) as Dict;
const SERVER_DEFAULT_PORT: number = envSchema.parse({}).PORT;

const clone = <T>(v: T): T => structuredClone(v);

function get(obj: unknown, dotted: string): unknown {
  let cur: unknown = obj;
  for (const key of dotted.split('.')) {
    if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = (cur as Dict)[key];
  }
  return cur;
}

function has(obj: unknown, dotted: string): boolean {
  const keys = dotted.split('.');
  const last = keys.pop()!;
  const parent = keys.length ? get(obj, keys.join('.')) : obj;
  return typeof parent === 'object' && parent !== null && !Array.isArray(parent) && Object.prototype.hasOwnProperty.call(parent, last);
}

// ---------------------------------------------------------------------------

describe('values.schema.json', () => {
  const compile = () => {
    const warnings: string[] = [];
    const ajv = new Ajv({
      allErrors: true,
      strict: true,
      logger: { log: () => undefined, warn: (...a: unknown[]) => warnings.push(a.join(' ')), error: (...a: unknown[]) => warnings.push(a.join(' ')) },
    });
    const validate = ajv.compile(schema);
    return { validate, warnings };
  };

  it('is a draft-07 schema that compiles in ajv strict mode without warnings', () => {
    expect(schema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    const { warnings } = compile();
    expect(warnings).toEqual([]);
  });

  it('accepts values.yaml', () => {
    const { validate } = compile();
    expect(validate(defaultValues)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
  });

  const rejected: [string, (v: Dict) => void][] = [
    ['an unknown top-level key', (v) => (v['replicas'] = 2)],
    ['an unknown nested key', (v) => ((v['image'] as Dict)['tagg'] = 'x')],
    ['an unknown key two levels down', (v) => (((v['probes'] as Dict)['liveness'] as Dict)['path'] = '/x')],
    ['a string where an integer is expected', (v) => ((v['server'] as Dict)['port'] = '3000')],
    ['a float where an integer is expected', (v) => ((v['shutdown'] as Dict)['delayMs'] = 1.5)],
    ['a value outside an enum', (v) => ((v['config'] as Dict)['logLevel'] = 'verbose')],
    ['a relative DATA_DIR', (v) => ((v['config'] as Dict)['dataDir'] = 'data')],
    ['a malformed Cognito pool id', (v) => ((v['cognito'] as Dict)['userPoolId'] = 'AbC123')],
    ['replicaCount > 1 without an external database', (v) => (v['replicaCount'] = 3)],
    ['autoscaling without an external database', (v) => ((v['autoscaling'] as Dict)['enabled'] = true)],
  ];

  it.each(rejected)('rejects %s', (_label, mutate) => {
    const { validate } = compile();
    const values = clone(defaultValues);
    mutate(values);
    expect(validate(values)).toBe(false);
  });

  it('accepts several replicas and autoscaling with an external database', () => {
    const { validate } = compile();
    const values = clone(defaultValues);
    values['replicaCount'] = 3;
    (values['autoscaling'] as Dict)['enabled'] = true;
    (values['database'] as Dict)['existingSecret'] = 'portal-db';
    expect(validate(values)).toBe(true);
  });

  it('sets additionalProperties: false on every object except free-form maps and pass-through Kubernetes objects', () => {
    // Maps whose keys are chosen by the user (annotations, labels, resource names).
    const freeFormMaps = new Set([
      'serviceAccount.annotations',
      'podAnnotations',
      'podLabels',
      'persistence.annotations',
      'service.annotations',
      'ingress.annotations',
      'agents.ingress.annotations',
      'resources.requests',
      'resources.limits',
      'nodeSelector',
    ]);
    // Kubernetes objects copied verbatim into the pod spec, and Helm's own `global`.
    const passThrough = new Set(['affinity.nodeAffinity', 'affinity.podAffinity', 'affinity.podAntiAffinity', 'global']);
    const offenders: string[] = [];
    let objects = 0;
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const s = node as Dict;
      if (s['type'] === 'object') {
        objects++;
        if (freeFormMaps.has(at)) {
          if (typeof s['additionalProperties'] !== 'object') offenders.push(`${at} (map without a value schema)`);
        } else if (!passThrough.has(at) && s['additionalProperties'] !== false) {
          offenders.push(at || '(root)');
        }
      }
      for (const [key, child] of Object.entries(s['properties'] ?? {})) walk(child, at ? `${at}.${key}` : key);
      if (s['items']) walk(s['items'], `${at}[]`);
    };
    walk(schema, '');
    expect(offenders).toEqual([]);
    expect(objects).toBeGreaterThan(25);
  });

  it('has a default in values.yaml for every chart setting the schema declares', () => {
    // Kubernetes objects copied into the pod spec accept optional fields that need no default.
    const kubernetesShaped = new Set(['podSecurityContext', 'securityContext', 'affinity', 'resources', 'global']);
    const missing: string[] = [];
    const walk = (node: unknown, at: string): void => {
      for (const [key, child] of Object.entries(((node as Dict)['properties'] ?? {}) as Dict)) {
        const p = at ? `${at}.${key}` : key;
        if (kubernetesShaped.has(p)) continue;
        if (!has(defaultValues, p)) missing.push(p);
        else if (isPlainObject(get(defaultValues, p))) walk(child, p);
      }
    };
    walk(schema, '');
    expect(missing).toEqual([]);
  });
});

function isPlainObject(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

describe('values.yaml', () => {
  it('documents every top-level key with a comment', () => {
    const doc = parseDocument(valuesText);
    const contents = doc.contents;
    if (!isMap(contents)) throw new Error('values.yaml must be a mapping');
    const undocumented = contents.items
      .filter((pair) => {
        const key = pair.key as { commentBefore?: string | null } | null;
        return !(key?.commentBefore ?? '').trim();
      })
      .map((pair) => String((pair.key as { value?: unknown } | null)?.value));
    expect(undocumented).toEqual([]);
    expect(contents.items.length).toBeGreaterThan(20);
  });

  it('defaults server.port to the server default port', () => {
    expect(get(defaultValues, 'server.port')).toBe(SERVER_DEFAULT_PORT);
  });

  it('documents the shutdown arithmetic next to the shutdown values', () => {
    expect(valuesText).toMatch(/terminationGracePeriodSeconds > preStopSleepSeconds \+ \(delayMs \+ timeoutMs\) \/ 1000/);
  });
});

describe('templates', () => {
  const templateFiles = readdirSync(TEMPLATE_DIR).sort();
  const VALUES_REF = /\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g;

  const referencedPaths = (text: string): string[] => [...text.matchAll(VALUES_REF)].map((m) => m[1]!.slice(1));

  it('has every template the chart needs', () => {
    for (const f of [
      '_helpers.tpl',
      'deployment.yaml',
      'service.yaml',
      'ingress.yaml',
      'configmap.yaml',
      'serviceaccount.yaml',
      'hpa.yaml',
      'pdb.yaml',
      'pvc.yaml',
      'NOTES.txt',
    ]) {
      expect(templateFiles).toContain(f);
    }
  });

  it('the .Values scanner finds references in if/with/range and $.Values forms', () => {
    expect(referencedPaths('{{- with .Values.a.b }}{{ if $.Values.c }}{{ range .Values.d.e_f }}')).toEqual(['a.b', 'c', 'd.e_f']);
  });

  it('reference only values that exist in values.yaml', () => {
    const unknown: string[] = [];
    let count = 0;
    for (const file of templateFiles) {
      const text = readFileSync(path.join(TEMPLATE_DIR, file), 'utf8');
      for (const p of referencedPaths(text)) {
        count++;
        if (!has(defaultValues, p)) unknown.push(`${file}: .Values.${p}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(count).toBeGreaterThan(40);
    expect(has(defaultValues, 'image.tagg')).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// Dockerfile

interface Instruction {
  op: string;
  args: string;
}

/** Splits a Dockerfile into instructions, joining continuation lines and dropping comments. */
function dockerInstructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let buffer = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (!line && !buffer)) continue;
    if (line.endsWith('\\')) {
      buffer += `${line.slice(0, -1)} `;
      continue;
    }
    const full = (buffer + line).trim();
    buffer = '';
    if (!full) continue;
    const m = /^(\S+)\s*(.*)$/.exec(full)!;
    out.push({ op: m[1]!.toUpperCase(), args: m[2]! });
  }
  return out;
}

describe('Dockerfile', () => {
  const instructions = dockerInstructions(read('Dockerfile'));
  const stages: Instruction[][] = [];
  for (const ins of instructions) {
    if (ins.op === 'FROM') stages.push([]);
    stages[stages.length - 1]?.push(ins);
  }
  const runtime = stages[stages.length - 1] ?? [];
  const ops = (stage: Instruction[], op: string) => stage.filter((i) => i.op === op).map((i) => i.args);

  it('is a multi-stage build on node:20-bookworm-slim', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage[0]!.args).toMatch(/^node:20-bookworm-slim(\s+AS\s+\S+)?$/i);
  });

  it('builds dist/ with the full dependency tree in a build stage', () => {
    const build = stages[0]!;
    const runs = ops(build, 'RUN').join('\n');
    expect(runs).toMatch(/\bnpm ci\b/);
    expect(runs).toMatch(/\bnpm run build\b/);
  });

  it('installs only production dependencies in the runtime stage and copies only dist/ from the build', () => {
    const runs = ops(runtime, 'RUN').join('\n');
    expect(runs).toMatch(/\bnpm ci\b[^\n]*--omit=dev/);
    expect(runs).toMatch(/npm cache clean --force/);
    expect(runs).not.toMatch(/npm run build/);
    const buildName = /\bAS\s+(\S+)/i.exec(stages[0]![0]!.args)?.[1];
    const fromBuild = ops(runtime, 'COPY').filter((a) => a.startsWith('--from='));
    expect(fromBuild).toEqual([`--from=${buildName} /app/dist ./dist`]);
    expect(ops(runtime, 'COPY').filter((a) => !a.startsWith('--from='))).toEqual(['package.json package-lock.json ./']);
  });

  it('runs as a numeric non-root user that matches the chart security context', () => {
    const users = ops(runtime, 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1]!;
    const [uid, gid] = user.split(':');
    expect(uid).toMatch(/^\d+$/);
    expect(uid).not.toBe('0');
    expect(user).not.toMatch(/^root\b/);
    expect(Number(uid)).toBe(get(defaultValues, 'podSecurityContext.runAsUser'));
    if (gid !== undefined) expect(Number(gid)).toBe(get(defaultValues, 'podSecurityContext.runAsGroup'));
    // The data directory belongs to that user.
    expect(ops(runtime, 'RUN').join('\n')).toMatch(new RegExp(`chown ${uid}(:\\d+)? /app/data`));
  });

  it('sets NODE_ENV=production and exposes the server default port', () => {
    expect(ops(runtime, 'ENV').join(' ')).toMatch(/\bNODE_ENV=production\b/);
    expect(ops(runtime, 'EXPOSE')).toEqual([String(SERVER_DEFAULT_PORT)]);
  });

  it('has a HEALTHCHECK that calls /healthz with node', () => {
    const checks = ops(runtime, 'HEALTHCHECK');
    expect(checks).toHaveLength(1);
    const check = checks[0]!;
    const cmd = /\bCMD\s+(.*)$/.exec(check)?.[1] ?? '';
    const argv = cmd.startsWith('[') ? (JSON.parse(cmd) as string[]) : cmd.split(/\s+/);
    expect(argv[0]).toBe('node');
    expect(argv.join(' ')).toContain('/healthz');
    expect(argv.join(' ')).toContain(`process.env.PORT||${SERVER_DEFAULT_PORT}`);
  });

  it('starts node dist/server.js in exec form so signals reach it', () => {
    const cmds = ops(runtime, 'CMD');
    expect(cmds.length).toBeGreaterThan(0);
    expect(JSON.parse(cmds[cmds.length - 1]!)).toEqual(['node', 'dist/server.js']);
    for (const entry of ops(runtime, 'ENTRYPOINT')) expect(entry.startsWith('[')).toBe(true);
  });
});

describe('.dockerignore', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.replace(/^\//, '').replace(/\/$/, ''));

  it.each(['node_modules', 'dist', 'data', '.git', '.env', 'coverage'])('excludes %s', (entry) => {
    expect(patterns).toContain(entry);
  });

  it('keeps the files the build needs', () => {
    for (const needed of ['package.json', 'package-lock.json', 'server', 'client', 'shared', 'scripts', 'tsconfig.json']) {
      expect(patterns).not.toContain(needed);
    }
  });
});
