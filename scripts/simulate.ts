/**
 * `npm run simulate -- --url http://localhost:3000 --devices 500 [--duration 120] [--offline 5%]
 * [--reject 1%] [--json] [--email … --password …] [--existing] [--wait 20]`: a fleet of simulated
 * device agents against a running portal (tools/simulator). Signs in as the demo administrator
 * (password from --password or DEMO_PASSWORD), registers the devices, creates the enrollment
 * tokens and plays the scenario that shows every status; a live line on stderr, with --json the
 * summary on stdout. Ctrl-C stops the agents and still prints the summary. With
 * `--payments [on-time=0.7,late=0.2,never=0.1] --api-key …`, the credits' customers pay through
 * the integration API meanwhile (tools/simulator/payments.ts; `--devices 0`: only them). See
 * tools/simulator/README.md.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs, type SimulateArgs } from '../tools/simulator/cliArgs';
import { runFleet, type FleetSnapshot } from '../tools/simulator/fleet';
import { CLI_TEXT } from '../tools/simulator/labels';
import { httpIntegrationPayments, portalCreditSource, runPayments, type PaymentStats } from '../tools/simulator/payments';
import { discoverPortal, httpPortalApi, portalCaller, signInPortal, type PortalApi, type PortalCall } from '../tools/simulator/portalApi';
import { formatLine, jsonSummary, summaryLines } from '../tools/simulator/summary';

export { parseArgs };

async function main(args: SimulateArgs): Promise<number> {
  const stderr = process.stderr;
  const tty = stderr.isTTY === true;
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    stderr.write(`\n${CLI_TEXT.interrupted}\n`);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);

  let portal: PortalApi | undefined;
  let call: PortalCall | undefined;
  if (args.scenario || args.payments) {
    const where = await discoverPortal(args.url, controller.signal);
    try {
      const session = await signInPortal(where, args.email, args.password!);
      const api = { apiUrl: where.apiUrl, headers: () => session.headers(), signal: controller.signal };
      if (args.scenario) portal = httpPortalApi(api);
      call = portalCaller(api);
    } catch (e) {
      stderr.write(`${CLI_TEXT.signInFailed(e instanceof Error ? e.message : String(e))}\n`);
      return 1;
    }
  }

  const durationMs = args.durationSeconds * 1000;
  let runStart: number | null = null;
  const show = (s: FleetSnapshot) => {
    runStart ??= Date.now() - s.elapsedMs;
    const line = formatLine(s, Math.min(durationMs, Date.now() - runStart), durationMs, tty ? (stderr.columns ?? 120) : Infinity);
    stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
  };
  // The customers pay while the agents run, over the same duration; their lines go between the live line's updates.
  const payments: Promise<PaymentStats> | undefined =
    args.payments && call
      ? runPayments({
          credits: portalCreditSource(call),
          api: httpIntegrationPayments({ baseUrl: args.url, apiKey: args.apiKey!, signal: controller.signal }),
          rates: args.payments,
          durationMs: args.durationSeconds * 1000,
          signal: controller.signal,
          seed: args.seed ?? undefined,
          onProgress: (line) => stderr.write(tty ? `\r${line}\x1b[K\n` : `${line}\n`),
        })
      : undefined;
  if (args.devices === 0) {
    const stats = await payments!;
    if (args.json) process.stdout.write(`${JSON.stringify({ payments: stats })}\n`);
    return 0;
  }
  try {
    const summary = await runFleet({
      baseUrl: args.url,
      devices: args.devices,
      durationMs,
      signal: controller.signal,
      seed: args.seed ?? undefined,
      portal,
      existing: args.existing,
      enrollmentToken: args.token ?? undefined,
      behaviour: { wait: args.wait, offline: args.offline, reject: args.reject, simChange: args.simChange, commandDelayMs: args.delayMs },
      onProgress: (message) => stderr.write(`${message}\n`),
      onStats: show,
      statsEveryMs: tty ? 1_000 : 5_000,
    });
    if (tty) stderr.write('\n');
    for (const line of summaryLines(summary)) stderr.write(`${line}\n`);
    const paid = await payments;
    if (args.json) process.stdout.write(`${JSON.stringify(paid ? { ...jsonSummary(summary), payments: paid } : jsonSummary(summary))}\n`);
    return 0;
  } catch (e) {
    stderr.write(`${tty ? '\n' : ''}${CLI_TEXT.prepareFailed(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const parsed = parseArgs(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    process.stderr.write(`${parsed.error}\n${CLI_TEXT.usage}\n`);
    process.exit(2);
  } else if (parsed.help) {
    process.stdout.write(`${CLI_TEXT.usage}\n`);
  } else {
    process.exitCode = await main(parsed.args);
  }
}
