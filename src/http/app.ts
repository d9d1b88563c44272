/**
 * The HTTP application, built apart from the process that listens: tests use
 * it through inject() or a real listener, server.ts through listen().
 */
import { METHODS, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import { ApiError } from '../errors.ts';
import type { Deps } from '../deps.ts';
import { createAccessGate } from './access-gate.ts';
import { isV1Target, MAX_SEGMENT, routableUrl } from './unroutable-path.ts';
import { clientErrorHandler, errorHandler, frameworkErrors, routingError } from './error-handler.ts';
import { answerConnect, drainingGuard, httpServerOptions, ignoreUnknownExpectations, rejectBadHost } from './front-door.ts';
import { registerOps, withOutages } from './ops.ts';
import { RequestLog, serializers } from './logging.ts';
import { loggableUrl, rejectKeyInQuery } from './query-keys.ts';
import { bodyWatch, watchForExposedKeys } from './exposure-hooks.ts';
import { openApiOptions } from './openapi.ts';
import { newRequestId } from './request-id.ts';
import { sitePlugin } from './site.ts';
import { v1Plugin } from './v1.ts';
import { expressLane } from './express-lane.ts';
import { CompressedCache } from './compressed-cache.ts';
import { BodyBuffers } from './body-buffers.ts';
import { lazySchemas, type LazySchemas } from './lazy-schemas.ts';
import { dashboardErrorHandler, dashboardPlugin, isDashboardUrl } from '../dashboard/plugin.ts';

export interface AppOptions {
  /** pino options; no logging when absent (tests). */
  logger?: Exclude<FastifyServerOptions['logger'], boolean>;
  /** The route schemas' compilers (lazy-schemas.ts): tests pass their own to compile them all, or 'eager' for Fastify's own. */
  schemas?: LazySchemas | 'eager';
  /** false: every request takes Fastify's path (tests compare the two); the express lane is on by default. */
  expressLane?: boolean;
}

export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const gate = createAccessGate({ store: deps.store, keys: deps.keys, limiter: deps.limiter, usage: deps.usage, now: deps.now, requestLog: deps.requestLog });
  const app = Fastify({
    // Whatever logger options come in, the redacting serializers apply.
    logger: options.logger ? { ...(options.logger as object), serializers } : false,
    logController: new RequestLog(),
    genReqId: newRequestId,
    requestIdHeader: false,
    // Code ids may be long: system (64) + code.
    routerOptions: { maxParamLength: MAX_SEGMENT },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: false } },
    // Each route's schemas are compiled by its first request, not at start-up.
    ...(options.schemas === 'eager' ? {} : { schemaController: { compilersFactory: (options.schemas ?? lazySchemas()).compilersFactory } }),
    http: httpServerOptions,
    // Behind a proxy the operator names (TRUST_PROXY), request.ip and request.protocol are the client's (its
    // X-Forwarded-For and -Proto): the sign-in throttle, the exposure watch's address, the session cookie's Secure.
    trustProxy: deps.config.trustProxy ?? false,
    // A /v1 path the router cannot take is routed, and refused as a bad parameter once admitted (unroutable-path.ts).
    rewriteUrl: routableUrl,
    // Requests that arrive while closing get our 503 (see drainingGuard), not Fastify's.
    return503OnClosing: false,
    // A path Fastify cannot route that rewriteUrl left as it was: under /v1 (in origin or absolute form), should
    // the router refuse a path rewriteUrl found routable, the key still comes first, then the 400.
    frameworkErrors: (error, request, reply) => {
      if (isDashboardUrl(request.url)) {
        reply.header('Request-Id', request.id);
        return void dashboardErrorHandler(deps)(routingError(error, request.url), request, reply);
      }
      if (!isV1Target(request.url)) return frameworkErrors(error, request, reply);
      Promise.resolve()
        .then(async () => {
          rejectKeyInQuery(request.url);
          await gate.authenticate(request);
        })
        .then(
          () => frameworkErrors(error, request, reply),
          (refusal: unknown) => {
            reply.header('Request-Id', request.id);
            errorHandler(refusal, request, reply);
          },
        );
    },
    clientErrorHandler,
  });

  // Fastify routes only the methods it knows, and answers the others 404. Every
  // method Node's parser accepts must reach the routes, so that a /v1 path
  // answers 405 with Allow (after authentication) whatever the method.
  for (const method of METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method);

  app.setErrorHandler(withOutages(errorHandler, deps.metrics));

  app.server.on('connect', answerConnect(app));
  ignoreUnknownExpectations(app.server);
  const drain = drainingGuard(app);

  // Callback-style hooks where nearly every request has nothing to wait for: no promise and no
  // microtask of their own (a throw is the hook's error all the same).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('Request-Id', request.id);
    drain.refuse(request);
    rejectBadHost(request);
    // First of all checks about the request's content, on every path: a key in a URL is refused (and marked exposed).
    const marking = watchForExposedKeys(deps.exposures, request);
    if (marking === null) {
      rejectKeyInQuery(request.url);
      return done();
    }
    marking.then(() => rejectKeyInQuery(request.url)).then(() => done(), done);
  });
  // A key in a parsed body field: only routes that take a body have one to look at (GET and HEAD pay nothing),
  // and the not-found handlers, here and the dashboard's (they are no route: onRoute never sees them).
  const watchBody = bodyWatch(deps.exposures);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    const own = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation];
    route.preValidation = [watchBody, ...own];
  });

  await app.register(swagger, openApiOptions({ publicUrl: deps.config.publicUrlSet ? deps.config.publicUrl : null }));

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  await registerOps(app, { store: deps.store, metrics: deps.metrics, redis: deps.redis });
  await app.register(sitePlugin);

  const compressed = new CompressedCache(deps.config.compressedCacheBytes);
  const bodies = new BodyBuffers();
  await app.register(v1Plugin, { prefix: '/v1', store: deps.catalog, cursors: deps.cursors, bodies, gate, compressed });
  await app.register(async (scope) => dashboardPlugin(scope, deps, watchBody), { prefix: '/dashboard' });

  app.setNotFoundHandler({ preValidation: watchBody }, async (request) => {
    throw new ApiError(
      'route_not_found',
      `No route ${request.method} ${loggableUrl(request.originalUrl.split('?')[0]!)}. The API lives under /v1; its reference is at /docs.`,
    );
  });

  if (options.expressLane !== false) {
    // In front of Fastify's own handler (app.routing, which inject() calls directly): see express-lane.ts.
    const lane = expressLane({ gate, store: deps.catalog, bodies, compressed, metrics: deps.metrics, log: app.log, draining: drain.draining });
    const routing = (request: IncomingMessage, response: ServerResponse): void => app.routing(request, response);
    app.server.removeAllListeners('request');
    app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      let answered = false;
      try {
        answered = lane(request, response);
      } catch (error) {
        // A fault of the lane itself: Fastify's path answers (a 500 there, if it fails the same way).
        app.log.error({ err: error }, 'express lane failed; the request takes the full path');
        if (response.headersSent) return void response.destroy();
      }
      if (!answered) routing(request, response);
    });
  }

  return app;
}
