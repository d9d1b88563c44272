/**
 * The HTTP application, built apart from the process that listens: tests use
 * it through inject() or a real listener, main.ts through listen().
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ApiError } from '../errors.ts';
import type { Deps } from '../deps.ts';
import { createAccessGate } from './access-gate.ts';
import { errorHandler } from './error-handler.ts';
import { RequestLog } from './logging.ts';
import { openApiOptions } from './openapi.ts';
import { v1Plugin } from './v1.ts';

export interface AppOptions {
  /** pino options; no logging when absent (tests). */
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new RequestLog(),
    genReqId: () => `req_${randomUUID().replaceAll('-', '')}`,
    requestIdHeader: false,
    // Code ids may be long: system (64) + code.
    routerOptions: { maxParamLength: 2048 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: false } },
    return503OnClosing: true,
  });

  app.setErrorHandler(errorHandler);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('Request-Id', request.id);
  });

  await app.register(swagger, openApiOptions);
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  const gate = createAccessGate({ store: deps.store, keys: deps.keys, limiter: deps.limiter, usage: deps.usage, now: deps.now });
  await app.register(v1Plugin, { prefix: '/v1', store: deps.store, cursors: deps.cursors, gate });

  app.setNotFoundHandler(async (request) => {
    throw new ApiError('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}. The API lives under /v1; its reference is at /docs.`);
  });

  return app;
}
