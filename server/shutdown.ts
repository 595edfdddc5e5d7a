import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from './logger';
import type { Readiness } from './health/readiness';

export interface ShutdownOptions {
  server: Server;
  readiness: Readiness;
  logger: Logger;
  /** Keep serving this long after the signal so load balancers see the 503 first. */
  delayMs: number;
  /** In-flight requests get this long to finish once the listener is closed. */
  timeoutMs: number;
  /** Closes pools and other resources after the last request. */
  /**
   * Runs when the listener stops accepting, before the drain waits for the requests in flight:
   * what holds a request open on purpose (long polls) answers now instead of at the deadline.
   */
  stopAccepting?: () => Promise<void>;
  close: () => Promise<void>;
}

/** What the drain knows about one connection. */
interface Connection {
  /** Requests received on it so far. */
  requests: number;
  /** Responses not yet finished (0 or 1: HTTP/1.1 answers in order). */
  open: Set<ServerResponse>;
}

/**
 * The connections of a server and the state of each: which are between requests, which are
 * answering, which have not sent their first request yet. Node's `server.close()` and
 * `closeIdleConnections()` count a connection that was just accepted, or whose next request is
 * still on the wire, as idle and close it under the client, which then sees a reset; the drain
 * needs to tell these apart.
 */
class ConnectionTracker {
  readonly connections = new Map<Socket, Connection>();
  draining = false;
  listenerClosed = false;

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { requests: 0, open: new Set() });
      socket.once('close', () => this.connections.delete(socket));
    });
    // Before the application's handler, so the header is set before anything is written.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const conn = this.connections.get(req.socket);
      if (this.draining) closeAfter(res);
      if (!conn) return;
      conn.requests++;
      conn.open.add(res);
      res.once('close', () => {
        conn.open.delete(res);
        // A keep-alive answer that began before the drain and ended after the listener closed:
        // nothing else will arrive on this connection that the server could still answer well.
        if (this.listenerClosed && conn.open.size === 0 && !req.socket.destroyed) req.socket.end();
      });
    });
  }

  /** From now on every answer (and every one not yet begun) closes its connection. */
  startDraining(): void {
    this.draining = true;
    for (const conn of this.connections.values()) for (const res of conn.open) closeAfter(res);
  }

  /**
   * Connections that answered everything they asked and advertised keep-alive before the drain:
   * ended gracefully (FIN). Connections that have not sent a request yet are left to send it:
   * it is answered with `Connection: close`.
   */
  endIdleKeepAlive(): void {
    for (const [socket, conn] of this.connections) if (conn.requests > 0 && conn.open.size === 0) socket.end();
  }

  destroyAll(): void {
    for (const socket of this.connections.keys()) socket.destroy();
  }
}

/** `Connection: close` on a response whose headers are not out yet. */
function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}

const trackers = new WeakMap<Server, ConnectionTracker>();

/**
 * Starts following a server's connections; call it before the server listens (the signal
 * handlers do), so the drain knows the requests already in flight when it begins.
 */
export function trackConnections(server: Server): void {
  if (!trackers.has(server)) trackers.set(server, new ConnectionTracker(server));
}

/**
 * The drain sequence: readiness 503 at once, and every answer from then on says
 * `Connection: close` → keep serving for `delayMs` → stop accepting; end the keep-alive
 * connections that sit between requests; answer every request already accepted, including
 * one that arrives on a connection accepted just before (up to `timeoutMs`, then cut what
 * remains) → close resources. Resolves with the exit code.
 */
export async function drain(opts: ShutdownOptions): Promise<number> {
  const { server, readiness, logger } = opts;
  trackConnections(server);
  const tracker = trackers.get(server)!;
  readiness.markShuttingDown();
  tracker.startDraining();
  logger.info({ delayMs: opts.delayMs }, 'shutdown: readiness is now 503');
  await new Promise((r) => setTimeout(r, opts.delayMs));

  logger.info('shutdown: no longer accepting connections');
  await opts.stopAccepting?.().catch((err: unknown) => logger.error({ err }, 'shutdown: ending long polls failed'));
  let forced = false;
  await new Promise<void>((resolve) => {
    const deadline = setTimeout(() => {
      forced = true;
      logger.warn({ timeoutMs: opts.timeoutMs, connections: tracker.connections.size }, 'shutdown: deadline reached, closing remaining connections');
      server.closeAllConnections();
      tracker.destroyAll();
      resolve();
    }, opts.timeoutMs);
    // net.Server's close: stops the listener only. http.Server's would also close every
    // connection it counts as idle, including those whose request is still on the wire.
    NetServer.prototype.close.call(server, () => {
      clearTimeout(deadline);
      resolve();
    });
    tracker.listenerClosed = true;
    tracker.endIdleKeepAlive();
  });

  try {
    await opts.close();
  } catch (err) {
    logger.error({ err }, 'shutdown: closing resources failed');
    return 1;
  }
  logger.info({ forced }, 'shutdown: complete');
  return 0;
}

/** Runs `drain` on the first SIGTERM or SIGINT, then exits with its code. */
export function installSignalHandlers(opts: ShutdownOptions, exit: (code: number) => void = process.exit): void {
  trackConnections(opts.server);
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    opts.logger.info({ signal }, 'shutdown: signal received');
    void drain(opts).then(exit);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
