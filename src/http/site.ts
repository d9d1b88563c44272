/**
 * What a person meets outside /v1 and the dashboard: the landing page at /, the
 * API reference at /docs, the icons. No key, not in the OpenAPI document, and
 * nothing asked of any other host: the renderer's bundle is served from here.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { landingPage, referencePage } from './pages.ts';
import { sendScalarBundle } from './scalar-bundle.ts';

const COMMON_CSP = ["default-src 'none'", "script-src 'self'", "img-src 'self'", "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"];

/** The landing page: the dashboard's stylesheet and nothing else. */
const LANDING_CSP = [...COMMON_CSP, "style-src 'self'"].join('; ');

/**
 * The reference: scripts from here only, and it fetches /openapi.json. Its
 * renderer (Vue) sets styles at run time, which no nonce or hash can cover, so
 * inline styles are allowed on this page alone; data: images are its icons.
 * No upgrade-insecure-requests: over plain HTTP on any host name but localhost
 * it would turn every asset request into HTTPS and leave the page blank.
 */
const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Content-Security-Policy of a page of the site. */
    csp?: string;
  }
}

export async function sitePlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    reply.headers({
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
    // Browsers ignore it, with a console error, on an origin that is not secure.
    if (request.protocol === 'https') reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    const csp = request.routeOptions.config.csp;
    if (csp) reply.header('Content-Security-Policy', csp);
  });

  // Exactly the files in public/ (wildcard: false), each on its own route: /favicon.ico, /favicon.svg, /assets/….
  await app.register(fastifyStatic, {
    root: join(import.meta.dirname, 'public'),
    prefix: '/',
    wildcard: false,
    index: false,
    decorateReply: false,
  });

  app.get('/', { config: { csp: LANDING_CSP } }, async (request, reply) =>
    reply.type('text/html; charset=utf-8').send(landingPage(`${request.protocol}://${request.host}`)),
  );
  app.get('/docs', { config: { csp: REFERENCE_CSP } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(referencePage()));
  app.get('/docs/', async (_request, reply) => reply.redirect('/docs', 301));
  app.get('/assets/scalar.js', sendScalarBundle);
}
