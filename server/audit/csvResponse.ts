import type { Request, Response } from 'express';

/**
 * Ends a response whose headers (status 200) are already out as a failure the client notices:
 * the connection is reset (TCP RST) instead of closed. A closed connection is a clean end of
 * the body to an HTTP/1.0 client or proxy (no chunked encoding, the body ends with the
 * connection), so the cut file would look complete; a reset is an error to every client,
 * proxy and browser, with or without chunked encoding or compression.
 */
export function abortResponse(res: Response): void {
  const socket = res.socket;
  if (socket && !socket.destroyed && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else res.destroy();
}

/**
 * Resolves once the response can take more (or is gone). `once` for 'drain': the compression
 * middleware hands drain listeners to its zlib stream and does not forward their removal.
 */
const drained = (res: Response) =>
  new Promise<void>((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });

/**
 * Writes a download piece by piece with back-pressure and stops reading when the client goes
 * away. A failure before the first piece is thrown (the error handler answers it); once the
 * headers are out it is logged and the connection is reset (`abortResponse`), never ended as
 * if the file were complete.
 */
export async function streamDownload(req: Request, res: Response, chunks: AsyncIterable<string>, what: string): Promise<void> {
  try {
    for await (const chunk of chunks) {
      if (res.destroyed) break;
      if (!res.write(chunk)) await drained(res);
    }
    if (!res.destroyed) res.end();
  } catch (err) {
    if (!res.headersSent) throw err;
    req.log?.error({ err }, `${what} interrupted`);
    abortResponse(res);
  }
}
