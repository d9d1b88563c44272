/**
 * Operations endpoints, outside /v1 and without a key: /readyz for a load
 * balancer and /metrics for Prometheus; the request metrics hook; and the
 * mapping of "a store is down" to 503 service_unavailable with Retry-After,
 * never to a misleading 401/403/429 or a 500.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, BUSY_RETRY_AFTER_SECONDS, DatabaseBusyError, OUTAGE_RETRY_AFTER_SECONDS, StoreUnavailableError } from '../errors.ts';
import type { Metrics } from './metrics.ts';

export interface OpsDeps {
  store: { ping(): Promise<void> };
  metrics: Metrics;
  /** Present when limits are shared through Redis. */
  redis: { ping(): Promise<void> } | null;
}

const CHECK_TIMEOUT_MS = 2_500;

/** true when the check passes within CHECK_TIMEOUT_MS; otherwise what failed. */
async function reachable(check: () => Promise<void>): Promise<true | Error> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Error>((resolve) => (timer = setTimeout(() => resolve(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([
      check().then(
        () => true as const,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ready when the database answers (on SQLite: from the files this server
 * opened, still under their names). Redis down leaves the instance ready
 * ("degraded"): it still serves, with per-instance limits, and taking every
 * instance out of rotation would turn a Redis outage into a full one.
 */
export async function registerOps(app: FastifyInstance, deps: OpsDeps): Promise<void> {
  // Why the database check fails, logged when it starts failing (or for another reason) and when it passes again,
  // not at every probe; the answer itself says only "unreachable" (it needs no key, and file paths are the operator's).
  let databaseFault: string | null = null;
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const [database, redis] = await Promise.all([reachable(() => deps.store.ping()), deps.redis ? reachable(() => deps.redis!.ping()) : Promise.resolve(null)]);
    const fault = database === true ? null : database.message;
    if (fault !== databaseFault) {
      if (fault === null) request.log.info({}, 'readiness: the database check passes again');
      else request.log.warn({ err: database }, `readiness: the database check fails: ${fault}`);
      databaseFault = fault;
    }
    const checks = { database: fault === null ? 'ok' : 'unreachable', redis: redis === null ? 'not configured' : redis === true ? 'ok' : 'unreachable' };
    if (fault !== null) {
      deps.metrics.storeError('database');
      reply.code(503).header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      return { status: 'unavailable', checks };
    }
    return { status: redis === null || redis === true ? 'ready' : 'degraded', checks };
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(deps.metrics.contentType);
    return deps.metrics.text();
  });

  app.addHook('onResponse', (request, reply, done) => {
    deps.metrics.request(request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * Wraps the error handler: StoreUnavailableError becomes 503 service_unavailable with Retry-After,
 * and so does a write an import kept waiting past its bound (DatabaseBusyError), never a 500.
 */
export function withOutages(
  handler: (error: unknown, request: FastifyRequest, reply: FastifyReply) => void,
  metrics: Metrics,
): (error: unknown, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    if (!(error instanceof StoreUnavailableError)) return handler(error, request, reply);
    if (error instanceof DatabaseBusyError) {
      request.log.warn({ err: error }, 'write not made: an import holds the database; answering 503');
      handler(
        new ApiError(
          'service_unavailable',
          'An import is being written to the database and this request could not be completed. Retry after the number of seconds in Retry-After.',
          {
            headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
          },
        ),
        request,
        reply,
      );
      return;
    }
    metrics.storeError('database');
    request.log.warn({ err: error }, 'database unreachable: answering 503');
    handler(
      new ApiError('service_unavailable', 'The service cannot reach its database right now. Retry after the number of seconds in Retry-After.', {
        headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
      }),
      request,
      reply,
    );
  };
}
