/**
 * The dashboard under /dashboard: server-rendered pages for the users of an
 * organisation. Security headers on every response, sessions in the database
 * behind an HttpOnly cookie, a CSRF token on every form, HTML errors.
 */
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { Deps } from '../deps.ts';
import { ApiError, BUSY_RETRY_AFTER_SECONDS, DatabaseBusyError, OUTAGE_RETRY_AFTER_SECONDS, StoreUnavailableError } from '../errors.ts';
import { resumeSession } from '../services/dashboard/sessions.ts';
import { authRoutes } from './auth-routes.ts';
import { orgRoutes } from './org-routes.ts';
import { keyLifeRoutes } from './key-life-routes.ts';
import { messagePage } from './pages/auth.ts';
import { isHttps, sendPage, SESSION_COOKIE } from './requests.ts';

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** True for the dashboard's paths, which answer HTML, also when the app refuses them. */
export function isDashboardUrl(url: string): boolean {
  return url.startsWith('/dashboard') && (url.length === 10 || url[10] === '/' || url[10] === '?');
}

/** The protective headers of every dashboard response, error pages included. */
function protectPage(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers({
    'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), clipboard-write=(self)',
    'Cache-Control': 'no-store',
  });
  if (isHttps(request)) reply.header('Strict-Transport-Security', 'max-age=31536000');
}

/**
 * The dashboard's error page for anything thrown under /dashboard, including
 * what the app refuses before the dashboard's own hooks run (a key-shaped query
 * string, a path that is not valid percent-encoding): HTML with the status of
 * the refusal, never a 500 for the client's mistake.
 */
export function dashboardErrorHandler(deps: Pick<Deps, 'metrics'>) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    protectPage(request, reply);
    if (error instanceof DatabaseBusyError) {
      // SQLite: an import holds the write lock until it commits; the write was not made.
      request.log.warn({ err: error }, 'dashboard write not made: an import holds the database');
      reply.header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
      return sendPage(
        reply,
        503,
        messagePage(
          'An import is being written',
          'An import is being written to the database, and this change has to wait until it has finished. Nothing was changed: try again in a minute.',
        ),
      );
    }
    if (error instanceof StoreUnavailableError) {
      deps.metrics.storeError('database');
      reply.header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      return sendPage(reply, 503, messagePage('Temporarily unavailable', 'The dashboard cannot reach its database right now. Try again in a few seconds.'));
    }
    if (error instanceof ApiError && error.code !== 'internal_error') {
      if (error.headers) reply.headers(error.headers);
      const title = error.status >= 500 ? 'Temporarily unavailable' : 'The request could not be handled';
      return sendPage(reply, error.status, messagePage(title, error.message));
    }
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendPage(reply, status, messagePage('Something went wrong', 'The request could not be handled.'));
    }
    request.log.error({ err: error }, 'dashboard error');
    return sendPage(reply, 500, messagePage('Something went wrong', 'Something went wrong on our side. Try again in a moment.'));
  };
}

/** watchBody: the app's watch for keys in a parsed body, which a request no page answers still gets. */
export async function dashboardPlugin(app: FastifyInstance, deps: Deps, watchBody: preValidationHookHandler): Promise<void> {
  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 16 * 1024 });

  app.addHook('onRequest', async (request, reply) => {
    protectPage(request, reply);
    request.dashboardSession = await resumeSession(deps.admin, request.cookies[SESSION_COOKIE]);
  });

  // Handlers first: the plugins registered below copy them when they load.
  app.setNotFoundHandler({ preValidation: watchBody }, async (_request, reply) => sendPage(reply, 404, messagePage('Not found', 'There is no such page.')));
  app.setErrorHandler(dashboardErrorHandler(deps));
  await app.register(fastifyStatic, {
    root: join(dirname(fileURLToPath(import.meta.url)), 'assets'),
    prefix: '/assets/',
    cacheControl: false,
    decorateReply: false,
  });
  await app.register(authRoutes, deps);
  await app.register(orgRoutes, deps);
  await app.register(keyLifeRoutes, deps);
}
