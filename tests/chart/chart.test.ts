/**
 * Checks of the container image definition and the Helm chart in helm/portal:
 * the values schema, the values referenced by the templates, the rendered
 * Kubernetes objects (validated with kubernetes-models) in embedded and external
 * database modes, and the Dockerfile structure.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { isMap, parse as parseYaml, parseDocument } from 'yaml';
import { envSchema } from '../../server/config';
import {
  SchemaError,
  TemplateFailError,
  parseManifests,
  renderChart,
  type RenderedChart,
} from '../helpers/helmTemplate';

type Dict = Record<string, unknown>;

function findRepoRoot(): string {
  let dir = process.cwd();
  for (;;) {
    if (existsSync(path.join(dir, 'helm', 'portal', 'Chart.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('helm/portal/Chart.yaml not found above the working directory');
    dir = parent;
  }
}

const ROOT = findRepoRoot();
const CHART_DIR = path.join(ROOT, 'helm', 'portal');
const TEMPLATE_DIR = path.join(CHART_DIR, 'templates');
const read = (...parts: string[]): string => readFileSync(path.join(ROOT, ...parts), 'utf8');

const valuesText = read('helm', 'portal', 'values.yaml');
const defaultValues = parseYaml(valuesText) as Dict;
const schema = JSON.parse(read('helm', 'portal', 'values.schema.json')) as Dict;
const chartMeta = parseYaml(read('helm', 'portal', 'Chart.yaml')) as Dict;
const SERVER_DEFAULT_PORT: number = envSchema.parse({}).PORT;

const clone = <T>(v: T): T => structuredClone(v);

function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`missing: ${what}`);
  return value;
}

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
// kubernetes-models

interface ModelClass<T> {
  new (data: never): T & { validate(): void };
  apiVersion: string;
  kind: string;
}

/** Builds the kubernetes-models object for a rendered manifest and validates it. */
function asModel<T>(Ctor: ModelClass<T>, manifest: Dict): T {
  expect(manifest['apiVersion']).toBe(Ctor.apiVersion);
  expect(manifest['kind']).toBe(Ctor.kind);
  const model = new Ctor(manifest as never);
  model.validate();
  return model;
}

const MODELS: Record<string, ModelClass<unknown>> = {
  ConfigMap,
  Deployment,
  HorizontalPodAutoscaler,
  Ingress,
  PersistentVolumeClaim,
  PodDisruptionBudget,
  Service,
  ServiceAccount,
};

interface Rendered {
  chart: RenderedChart;
  /** Manifests per template file (empty list when the template renders nothing). */
  byFile: Record<string, Dict[]>;
  all: Dict[];
}

function render(values: Dict = {}, options: { validateSchema?: boolean } = {}): Rendered {
  const chart = renderChart(CHART_DIR, { values, releaseName: 'acme', namespace: 'portal', ...options });
  const byFile: Record<string, Dict[]> = {};
  for (const [file, text] of Object.entries(chart.files)) byFile[file] = parseManifests(text);
  return { chart, byFile, all: Object.values(byFile).flat() };
}

function one(r: Rendered, file: string): Dict {
  const docs = must(r.byFile[`templates/${file}`], file);
  expect(docs).toHaveLength(1);
  return docs[0]!;
}

function deploymentOf(r: Rendered): Deployment {
  return asModel(Deployment, one(r, 'deployment.yaml'));
}

function configMapOf(r: Rendered): ConfigMap {
  return asModel(ConfigMap, one(r, 'configmap.yaml'));
}

function containerOf(dep: Deployment) {
  const containers = must(dep.spec?.template.spec?.containers, 'containers');
  expect(containers).toHaveLength(1);
  return containers[0]!;
}

const EXTERNAL = { database: { existingSecret: 'portal-db' } } as const;

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

  it('documents the shutdown arithmetic next to the shutdown values', () => {
    expect(valuesText).toMatch(/terminationGracePeriodSeconds > preStopSleepSeconds \+ \(delayMs \+ timeoutMs\) \/ 1000/);
  });
});

describe('templates', () => {
  const templateFiles = readdirSync(TEMPLATE_DIR).sort();
  const VALUES_REF = /\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g;

  const referencedPaths = (text: string): string[] => [...text.matchAll(VALUES_REF)].map((m) => m[1]!.slice(1));

  it('has every template the chart needs', () => {
    for (const f of ['_helpers.tpl', 'deployment.yaml', 'service.yaml', 'ingress.yaml', 'configmap.yaml', 'serviceaccount.yaml', 'hpa.yaml', 'pdb.yaml', 'pvc.yaml', 'NOTES.txt']) {
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

type Container = ReturnType<typeof containerOf>;
type PodSpec = NonNullable<NonNullable<Deployment['spec']>['template']['spec']>;

describe('rendered chart: embedded database (default values)', () => {
  let r: Rendered;
  let dep: Deployment;
  let cm: ConfigMap;
  let container: Container;
  let podSpec: PodSpec;
  beforeAll(() => {
    r = render();
    dep = deploymentOf(r);
    cm = configMapOf(r);
    container = containerOf(dep);
    podSpec = must(dep.spec?.template.spec, 'pod spec');
  });

  it('renders only valid Kubernetes objects, and no HPA, PDB or Ingress', () => {
    for (const manifest of r.all) asModel(must(MODELS[String(manifest['kind'])], `model for ${String(manifest['kind'])}`), manifest);
    expect(r.all.map((m) => m['kind']).sort()).toEqual(['ConfigMap', 'Deployment', 'PersistentVolumeClaim', 'Service', 'ServiceAccount']);
    expect(r.chart.files['templates/hpa.yaml']!.trim()).toBe('');
    expect(r.chart.files['templates/pdb.yaml']!.trim()).toBe('');
    expect(r.chart.files['templates/ingress.yaml']!.trim()).toBe('');
  });

  it('runs exactly one replica with the Recreate strategy', () => {
    expect(dep.spec?.replicas).toBe(1);
    expect(dep.spec?.strategy).toEqual({ type: 'Recreate' });
  });

  it('mounts the PersistentVolumeClaim at DATA_DIR', () => {
    const pvc = asModel(PersistentVolumeClaim, one(r, 'pvc.yaml'));
    const claimName = must(pvc.metadata?.name, 'pvc name');
    expect(pvc.spec?.accessModes).toEqual(['ReadWriteOnce']);
    expect(pvc.spec?.resources?.requests?.['storage']).toBe('1Gi');
    expect(pvc.metadata?.annotations?.['helm.sh/resource-policy']).toBe('keep');
    const volume = must(podSpec.volumes?.find((v) => v.persistentVolumeClaim), 'PVC volume');
    expect(volume.persistentVolumeClaim?.claimName).toBe(claimName);
    const mount = must(container.volumeMounts?.find((m) => m.name === volume.name), 'data mount');
    expect(mount.mountPath).toBe(cm.data?.['DATA_DIR']);
    expect(mount.mountPath).toBe('/app/data');
  });

  it('has no DATABASE_URL: the embedded PGlite database is used', () => {
    expect(container.env ?? []).toEqual([]);
    expect(cm.data).not.toHaveProperty('DATABASE_URL');
  });

  it('probes /healthz (startup, liveness) and /readyz (readiness) on the port named http', () => {
    expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.ports).toEqual([{ name: 'http', containerPort: SERVER_DEFAULT_PORT, protocol: 'TCP' }]);
  });

  it('uses the server default port in values.yaml and exports it as PORT', () => {
    expect(get(defaultValues, 'server.port')).toBe(SERVER_DEFAULT_PORT);
    expect(cm.data?.['PORT']).toBe(String(SERVER_DEFAULT_PORT));
  });

  it('loads the ConfigMap with envFrom', () => {
    expect(container.envFrom).toEqual([{ configMapRef: { name: cm.metadata?.name } }]);
  });

  it('runs as the non-root user 10001 with a hardened container', () => {
    expect(podSpec.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 10001,
      runAsGroup: 10001,
      fsGroup: 10001,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it('mounts an emptyDir at /tmp', () => {
    const mount = must(container.volumeMounts?.find((m) => m.mountPath === '/tmp'), '/tmp mount');
    const volume = must(podSpec.volumes?.find((v) => v.name === mount.name), '/tmp volume');
    expect(volume.emptyDir).toEqual({});
  });

  it('takes resources from values', () => {
    expect(container.resources).toEqual(get(defaultValues, 'resources'));
  });

  it('uses the chart appVersion as the default image tag', () => {
    expect(container.image).toBe(`macrolock/portal:${String(chartMeta['appVersion'])}`);
    expect(container.imagePullPolicy).toBe('IfNotPresent');
  });

  it('annotates the pod with the ConfigMap checksum and Prometheus scrape settings', () => {
    const annotations = must(dep.spec?.template.metadata?.annotations, 'pod annotations');
    const configText = must(r.chart.files['templates/configmap.yaml'], 'configmap text');
    expect(annotations['checksum/config']).toBe(createHash('sha256').update(configText).digest('hex'));
    expect(annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(SERVER_DEFAULT_PORT),
      'prometheus.io/path': '/metrics',
    });
  });

  it('uses the standard labels and a selector that matches the pods and the Service', () => {
    const labels = must(dep.metadata?.labels, 'labels');
    expect(labels).toMatchObject({
      'app.kubernetes.io/name': 'portal',
      'app.kubernetes.io/instance': 'acme',
      'app.kubernetes.io/version': String(chartMeta['appVersion']),
      'app.kubernetes.io/managed-by': 'Helm',
      'helm.sh/chart': `portal-${String(chartMeta['version'])}`,
    });
    const selector = must(dep.spec?.selector.matchLabels, 'selector');
    expect(selector).toEqual({ 'app.kubernetes.io/name': 'portal', 'app.kubernetes.io/instance': 'acme' });
    expect(dep.spec?.template.metadata?.labels).toMatchObject(selector);
    const svc = asModel(Service, one(r, 'service.yaml'));
    expect(svc.spec?.selector).toEqual(selector);
    expect(svc.spec?.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
  });

  it('uses its own ServiceAccount without a mounted API token', () => {
    const sa = asModel(ServiceAccount, one(r, 'serviceaccount.yaml'));
    expect(podSpec.serviceAccountName).toBe(sa.metadata?.name);
    expect(podSpec.automountServiceAccountToken).toBe(false);
  });

  it('produces a ConfigMap the server configuration accepts', () => {
    const known = new Set([...Object.keys(envSchema.shape), 'BOOTSTRAP_ADMIN_EMAIL']);
    const data = must(cm.data, 'configmap data');
    expect(Object.keys(data).filter((k) => !known.has(k))).toEqual([]);
    const parsed = envSchema.safeParse({
      ...data,
      COGNITO_USER_POOL_ID: 'us-east-1_AbC123',
      COGNITO_CLIENT_ID: 'abc123',
    });
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data).toMatchObject({ NODE_ENV: 'production', PORT: SERVER_DEFAULT_PORT, TRUST_PROXY: 0, IDENTITY_MODE: 'cognito' });
    expect(data).not.toHaveProperty('BOOTSTRAP_ADMIN_EMAIL');
  });

  it('warns in NOTES.txt when Cognito is not configured', () => {
    expect(r.chart.notes).toMatch(/WARNING: config.identityMode is "cognito"/);
    expect(render({ cognito: { userPoolId: 'us-east-1_AbC123', clientId: 'abc123' } }).chart.notes).not.toMatch(/WARNING/);
  });
});

describe('rendered chart: shutdown arithmetic', () => {
  /** Seconds Kubernetes must wait: preStop sleep + SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS. */
  const needed = (r: Rendered): { grace: number; budget: number; preStop: number } => {
    const dep = deploymentOf(r);
    const data = must(configMapOf(r).data, 'configmap data');
    const command = containerOf(dep).lifecycle?.preStop?.exec?.command;
    let preStop = 0;
    if (command) {
      expect(command[0]).toBe('sleep');
      preStop = Number(command[1]);
    }
    const budget = preStop + (Number(data['SHUTDOWN_DELAY_MS']) + Number(data['SHUTDOWN_TIMEOUT_MS'])) / 1000;
    return { grace: must(dep.spec?.template.spec?.terminationGracePeriodSeconds, 'grace'), budget, preStop };
  };

  it('default values leave room for the server shutdown sequence', () => {
    const { grace, budget, preStop } = needed(render());
    expect(preStop).toBe(0);
    expect(budget).toBe(15);
    expect(grace).toBeGreaterThan(budget);
  });

  it('renders the preStop sleep when asked and still keeps the inequality', () => {
    const r = render({ shutdown: { preStopSleepSeconds: 3, delayMs: 8000, timeoutMs: 20000, terminationGracePeriodSeconds: 40 } });
    const { grace, budget, preStop } = needed(r);
    expect(preStop).toBe(3);
    expect(budget).toBe(31);
    expect(grace).toBe(40);
    expect(grace).toBeGreaterThan(budget);
  });

  it.each([
    ['the default delays with a 15 s grace period', { terminationGracePeriodSeconds: 15 }],
    ['a long drain timeout', { timeoutMs: 30000 }],
    ['a preStop sleep that eats the margin', { preStopSleepSeconds: 16 }],
    ['a fractional budget rounded up', { delayMs: 5500, timeoutMs: 10000, terminationGracePeriodSeconds: 16 }],
  ])('refuses to render with %s', (_label, shutdown) => {
    expect(() => render({ shutdown })).toThrow(TemplateFailError);
    expect(() => render({ shutdown })).toThrow(/terminationGracePeriodSeconds/);
  });
});

describe('rendered chart: external database', () => {
  let r: Rendered;
  let dep: Deployment;
  let container: Container;
  let podSpec: PodSpec;
  beforeAll(() => {
    r = render({ ...EXTERNAL, replicaCount: 3 });
    dep = deploymentOf(r);
    container = containerOf(dep);
    podSpec = must(dep.spec?.template.spec, 'pod spec');
  });

  it('renders only valid Kubernetes objects, with a PDB and without a PVC', () => {
    for (const manifest of r.all) asModel(must(MODELS[String(manifest['kind'])], `model for ${String(manifest['kind'])}`), manifest);
    expect(r.all.map((m) => m['kind']).sort()).toEqual(['ConfigMap', 'Deployment', 'PodDisruptionBudget', 'Service', 'ServiceAccount']);
    expect(r.chart.files['templates/pvc.yaml']!.trim()).toBe('');
  });

  it('runs N replicas with a RollingUpdate that never drops below N', () => {
    expect(dep.spec?.replicas).toBe(3);
    expect(dep.spec?.strategy?.type).toBe('RollingUpdate');
    expect(dep.spec?.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
    expect(podSpec.volumes?.some((v) => v.persistentVolumeClaim)).toBe(false);
  });

  it('reads DATABASE_URL from the existing Secret', () => {
    expect(container.env).toEqual([
      { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'portal-db', key: 'DATABASE_URL' } } },
    ]);
    const custom = containerOf(deploymentOf(render({ database: { existingSecret: 'pg', existingSecretKey: 'url' } })));
    expect(custom.env?.[0]?.valueFrom?.secretKeyRef).toEqual({ name: 'pg', key: 'url' });
  });

  it('keeps DATA_DIR writable with an emptyDir', () => {
    const mount = must(container.volumeMounts?.find((m) => m.mountPath === '/app/data'), 'data mount');
    expect(podSpec.volumes?.find((v) => v.name === mount.name)?.emptyDir).toEqual({});
  });

  it('renders a policy/v1 PodDisruptionBudget over the same pods', () => {
    const pdb = asModel(PodDisruptionBudget, one(r, 'pdb.yaml'));
    expect(pdb.spec?.maxUnavailable).toBe(1);
    expect(pdb.spec?.selector?.matchLabels).toEqual(dep.spec?.selector.matchLabels);
    expect(render({ ...EXTERNAL, podDisruptionBudget: { enabled: false } }).byFile['templates/pdb.yaml']).toEqual([]);
    const min = asModel(PodDisruptionBudget, one(render({ ...EXTERNAL, podDisruptionBudget: { minAvailable: '50%' } }), 'pdb.yaml'));
    expect(min.spec).toMatchObject({ minAvailable: '50%' });
    expect(min.spec?.maxUnavailable).toBeUndefined();
  });

  it('renders an autoscaling/v2 HPA when enabled and leaves replicas to it', () => {
    expect(r.byFile['templates/hpa.yaml']).toEqual([]);
    const scaled = render({ ...EXTERNAL, autoscaling: { enabled: true, targetMemoryUtilizationPercentage: 80 } });
    const hpa = asModel(HorizontalPodAutoscaler, one(scaled, 'hpa.yaml'));
    const scaledDep = deploymentOf(scaled);
    expect(hpa.spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: scaledDep.metadata?.name });
    expect(hpa.spec).toMatchObject({ minReplicas: 2, maxReplicas: 6 });
    expect(hpa.spec?.metrics?.map((m) => [m.resource?.name, m.resource?.target.averageUtilization])).toEqual([
      ['cpu', 70],
      ['memory', 80],
    ]);
    expect(scaledDep.spec).not.toHaveProperty('replicas');
    expect(scaledDep.spec?.strategy?.type).toBe('RollingUpdate');
  });

  it('passes DATABASE_POOL_MAX only with an external database', () => {
    expect(configMapOf(r).data?.['DATABASE_POOL_MAX']).toBe('10');
    expect(configMapOf(render()).data).not.toHaveProperty('DATABASE_POOL_MAX');
  });
});

describe('rendered chart: embedded mode refuses to scale', () => {
  it.each([
    ['replicaCount: 2', { replicaCount: 2 }],
    ['autoscaling.enabled', { autoscaling: { enabled: true } }],
  ])('rejects %s in the schema and, without the schema, in the templates', (_label, values) => {
    expect(() => render(values)).toThrow(SchemaError);
    expect(() => render(values, { validateSchema: false })).toThrow(TemplateFailError);
    expect(() => render(values, { validateSchema: false })).toThrow(/database.existingSecret/);
  });

  it('never renders HPA or PDB without an external database, even when enabled', () => {
    const r = render({ podDisruptionBudget: { enabled: true } });
    expect(r.byFile['templates/pdb.yaml']).toEqual([]);
    expect(r.byFile['templates/hpa.yaml']).toEqual([]);
    // hpa.yaml on its own (the schema and the Deployment's guard would stop earlier).
    const alone = renderChart(CHART_DIR, { values: { autoscaling: { enabled: true } }, validateSchema: false, only: ['hpa.yaml'] });
    expect(alone.files).toEqual({ 'templates/hpa.yaml': expect.any(String) });
    expect(alone.files['templates/hpa.yaml']!.trim()).toBe('');
  });
});

describe('rendered chart: configuration', () => {
  it('takes Cognito ids from values into the ConfigMap', () => {
    const r = render({ cognito: { region: 'eu-west-1', userPoolId: 'eu-west-1_AbC123', clientId: 'abc123' } });
    expect(configMapOf(r).data).toMatchObject({
      COGNITO_REGION: 'eu-west-1',
      COGNITO_USER_POOL_ID: 'eu-west-1_AbC123',
      COGNITO_CLIENT_ID: 'abc123',
    });
    expect(containerOf(deploymentOf(r)).env ?? []).toEqual([]);
  });

  it('takes Cognito ids from an existing Secret when given', () => {
    const r = render({ cognito: { existingSecret: 'portal-cognito', userPoolId: 'us-east-1_Ignored1', clientId: 'ignored' } });
    const data = configMapOf(r).data;
    expect(data).not.toHaveProperty('COGNITO_USER_POOL_ID');
    expect(data).not.toHaveProperty('COGNITO_CLIENT_ID');
    expect(containerOf(deploymentOf(r)).env).toEqual([
      { name: 'COGNITO_USER_POOL_ID', valueFrom: { secretKeyRef: { name: 'portal-cognito', key: 'COGNITO_USER_POOL_ID' } } },
      { name: 'COGNITO_CLIENT_ID', valueFrom: { secretKeyRef: { name: 'portal-cognito', key: 'COGNITO_CLIENT_ID' } } },
    ]);
  });

  it('sets BOOTSTRAP_ADMIN_EMAIL only when given', () => {
    const r = render({ config: { bootstrapAdminEmail: 'admin@example.com' } });
    expect(configMapOf(r).data?.['BOOTSTRAP_ADMIN_EMAIL']).toBe('admin@example.com');
  });

  it('derives TRUST_PROXY from the ingress unless set explicitly', () => {
    const withIngress = render({ ingress: { enabled: true } });
    expect(configMapOf(withIngress).data?.['TRUST_PROXY']).toBe('1');
    expect(configMapOf(render({ config: { trustProxy: 2 } })).data?.['TRUST_PROXY']).toBe('2');
  });

  it('renders a valid networking.k8s.io/v1 Ingress to the http port of the Service', () => {
    const r = render({
      ingress: { enabled: true, className: 'nginx', tls: [{ secretName: 'portal-tls', hosts: ['portal.example.com'] }] },
    });
    const ing = asModel(Ingress, one(r, 'ingress.yaml'));
    const svc = asModel(Service, one(r, 'service.yaml'));
    expect(ing.spec?.ingressClassName).toBe('nginx');
    expect(ing.spec?.tls).toEqual([{ hosts: ['portal.example.com'], secretName: 'portal-tls' }]);
    const backend = ing.spec?.rules?.[0]?.http?.paths[0]?.backend.service;
    expect(backend).toEqual({ name: svc.metadata?.name, port: { name: 'http' } });
  });

  it('changes the checksum annotation when the configuration changes', () => {
    const checksum = (values: Dict): string | undefined =>
      deploymentOf(render(values)).spec?.template.metadata?.annotations?.['checksum/config'];
    expect(checksum({ config: { logLevel: 'debug' } })).not.toBe(checksum({}));
  });

  it('drops the Prometheus annotations when disabled', () => {
    const annotations = deploymentOf(render({ metrics: { prometheusAnnotations: false } })).spec?.template.metadata?.annotations;
    expect(Object.keys(annotations ?? {}).filter((k) => k.startsWith('prometheus.io/'))).toEqual([]);
  });

  it('passes scheduling, pull secrets and extra environment through', () => {
    const r = render({
      imagePullSecrets: [{ name: 'regcred' }],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'portal', effect: 'NoSchedule' }],
      affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
      extraEnv: [{ name: 'BOOTSTRAP_ADMIN_PASSWORD', valueFrom: { secretKeyRef: { name: 'boot', key: 'password' } } }],
      image: { tag: '1.2.3' },
    });
    const dep = deploymentOf(r);
    const spec = must(dep.spec?.template.spec, 'pod spec');
    expect(spec.imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect(spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'portal', effect: 'NoSchedule' }]);
    expect(spec.affinity).toEqual({ podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } });
    expect(containerOf(dep).env).toEqual([
      { name: 'BOOTSTRAP_ADMIN_PASSWORD', valueFrom: { secretKeyRef: { name: 'boot', key: 'password' } } },
    ]);
    expect(containerOf(dep).image).toBe('macrolock/portal:1.2.3');
    expect(dep.metadata?.labels?.['app.kubernetes.io/version']).toBe('1.2.3');
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
