import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { PATHS, findRoute } from '../../shared/constants/routes';
import type { PublicConfig } from '../../shared/contracts/publicConfig';
import { loadAllChunks } from '../../client/app/pages';
import { renderDocument } from './document';
import { documentAssets } from './documentAssets';
import type { AssetManifest } from './manifest';
import { renderApp } from './render';

interface CachedPage {
  status: number;
  /** The document split where the nonce goes. */
  parts: string[];
}

/**
 * The server-rendered shell. The markup carries no per-user data (tokens live in the
 * browser), so each URL is rendered once per process and kept in a bounded LRU cache;
 * only the CSP nonce changes per response.
 */
export function ssrRouter(opts: { config: PublicConfig; manifest: AssetManifest; cacheEntries: number }): Router {
  const router = Router();
  const placeholder = `__nonce_${randomBytes(12).toString('hex')}__`;
  const cache = new Map<string, CachedPage>();
  let pagesReady: Promise<unknown> | undefined;

  async function render(url: string): Promise<CachedPage> {
    const hit = cache.get(url);
    if (hit) {
      cache.delete(url);
      cache.set(url, hit);
      return hit;
    }
    await (pagesReady ??= loadAllChunks());
    const { markup, state } = renderApp(url, opts.config);
    const html = renderDocument({
      markup,
      state,
      config: opts.config,
      manifest: opts.manifest,
      assets: documentAssets(opts.manifest, url),
      nonce: placeholder,
    });
    const entry: CachedPage = { status: findRoute(url) ? 200 : 404, parts: html.split(placeholder) };
    if (opts.cacheEntries > 0) {
      cache.set(url, entry);
      if (cache.size > opts.cacheEntries) cache.delete(cache.keys().next().value!);
    }
    return entry;
  }

  // A sign-in form submitted before the scripts ran: the body is never read; show the page again.
  router.post(PATHS.login, (_req, res) => {
    res.redirect(303, PATHS.login);
  });

  router.get('/{*splat}', async (req, res) => {
    const page = await render(req.originalUrl);
    res.locals.metricsRoute = page.status === 200 ? findRoute(req.path)!.path : 'unmatched';
    res.status(page.status).set('Cache-Control', 'no-store').type('html').send(page.parts.join(res.locals.cspNonce));
  });
  return router;
}
