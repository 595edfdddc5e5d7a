import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { CommandRepository } from '../devices';
import type { PresenceOutcome } from './presenceWriter';

export type CheckinOutcome = 'commands' | 'empty' | 'unauthorized' | 'rate_limited' | 'invalid' | 'error';

/** What /metrics tells of the device side. */
export interface AgentMetrics {
  checkin(outcome: CheckinOutcome): void;
  /** A command reached a device (first delivery) or was completed by it, `seconds` after it was requested. */
  latency(stage: 'delivered' | 'acknowledged' | 'rejected', action: number, seconds: number): void;
  /** Check-in reports of `devices` devices written by a presence batch, skipped by it (held or superseded), or not written. */
  presence(outcome: PresenceOutcome, devices: number): void;
}

/**
 * Registers the agent metrics on the app's registry: check-ins by outcome, open long polls,
 * pending commands by action (read at scrape time, at most once a second), the command
 * latency from its request to its delivery and to its acknowledgement, and the check-in reports
 * waiting for their presence batch and what became of them.
 */
export function createAgentMetrics(
  registry: Registry,
  openPolls: () => number,
  repo: () => CommandRepository,
  presencePending: () => number,
): AgentMetrics {
  const checkins = new Counter({
    name: 'agent_checkins_total',
    help: 'Check-ins de agentes por resultado',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'agent_long_polls_open',
    help: 'Check-ins en espera de un comando (long poll) en esta réplica',
    registers: [registry],
    collect() {
      this.set(openPolls());
    },
  });
  let cached: { at: number; rows: { action: number; n: number }[] } | undefined;
  new Gauge({
    name: 'agent_pending_commands',
    help: 'Comandos pendientes de confirmación por acción',
    labelNames: ['action'] as const,
    registers: [registry],
    async collect() {
      if (!cached || Date.now() - cached.at > 1000) {
        const rows = await repo()
          .pendingByAction()
          .catch(() => cached?.rows ?? []);
        cached = { at: Date.now(), rows };
      }
      this.reset();
      for (const r of cached.rows) this.set({ action: String(r.action) }, r.n);
    },
  });
  const latency = new Histogram({
    name: 'agent_command_latency_seconds',
    help: 'Segundos desde que se solicita un comando hasta que el dispositivo lo recibe y hasta que lo confirma o rechaza',
    labelNames: ['stage', 'action'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 15, 60, 300, 3600, 86400],
    registers: [registry],
  });
  new Gauge({
    name: 'agent_presence_pending',
    help: 'Reportes de check-in (última conexión, versiones, batería) en espera de su escritura por lotes en esta réplica',
    registers: [registry],
    collect() {
      this.set(presencePending());
    },
  });
  const presence = new Counter({
    name: 'agent_presence_reports_total',
    help: 'Reportes de check-in escritos por lotes (written), omitidos por estar la fila en uso o ya actualizada (skipped) o no escritos (failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return {
    checkin: (outcome) => checkins.inc({ outcome }),
    presence: (outcome, devices) => {
      if (devices > 0) presence.inc({ outcome }, devices);
    },
    latency: (stage, action, seconds) => latency.observe({ stage, action: String(action) }, Math.max(0, seconds)),
  };
}
