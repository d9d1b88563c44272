/**
 * Everything under /v1. One onRequest hook runs the checks that come before
 * parameters, in the order the README documents: key in query (400) → authentication
 * (401) → route (404/405) → plan (403) → limits (429). Fastify's schema
 * validation (parameters, 400) and the handler (404/200) follow.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { loggableUrl } from './query-keys.ts';
import { changesRoutes } from './routes/changes.ts';
import { codesRoutes } from './routes/codes.ts';
import { searchRoutes } from './routes/search.ts';
import { systemsRoutes } from './routes/systems.ts';
import { hierarchyRoutes } from './routes/hierarchy.ts';
import { batchRoutes } from './routes/batch.ts';
import type { EndpointName, Principal } from '../domain/access.ts';
import type { ErrorCode } from '../errors.ts';
import type { RouteDeps } from './routes/v1-types.ts';
import type { CompressedCache } from './compressed-cache.ts';
import { registerRepresentations } from './representations.ts';
import { pathRefusal } from './unroutable-path.ts';

/**
 * What the gate reads of a request and notes on it: a Fastify request, or the
 * express lane's own (express-lane.ts), which answers without one.
 */
export interface GateRequest {
  readonly headers: IncomingHttpHeaders;
  readonly raw: { readonly rawHeaders: string[] };
  principal?: Principal;
  keyPrefix?: string;
  countedAt?: number;
}

/** A finished request, as recordOutcome counts and logs it. */
export interface AnsweredRequest {
  readonly id: string;
  readonly method: string;
  readonly url: string;
  /** The URL as the client sent it (`url` is the one routed: see unroutable-path.ts). */
  readonly originalUrl: string;
  readonly principal?: Principal;
  readonly keyPrefix?: string;
  readonly countedAt?: number;
  readonly errorCode?: ErrorCode;
}

/** Where the gate sets response headers (the RateLimit fields). */
export interface HeaderSink {
  headers(values: Record<string, string>): unknown;
}

/** Authentication, plan and limits: the access-control layer plugs in here. */
export interface Gatekeeper {
  /** Throws invalid_api_key; returns (or resolves to) whatever admit() needs to know about the caller. */
  authenticate(request: FastifyRequest): unknown;
  /** Throws the 403/429 errors; sets rate-limit headers on the reply. */
  admit(principal: unknown, endpoint: EndpointName, request: FastifyRequest, reply: FastifyReply): Promise<void> | void;
  /**
   * authenticate() and admit() in one step, when neither has to wait for
   * anything (the key's lookup is cached, the limiter holds its counts): true
   * when the request is admitted; false when it must take those two instead,
   * with nothing counted. Throws what they throw.
   */
  admitNow?(endpoint: EndpointName, request: GateRequest, reply: HeaderSink, access?: unknown): boolean;
  /**
   * What lets admitNow() decide this request at once (pass it on, and the key
   * is not looked up twice): the cached key, whose plan has the endpoint; the
   * limits then decide. Undefined when admitNow() would not decide at once, or
   * would note a refusal. Nothing is counted or noted. Throws the 401
   * admitNow() would for a key that is surely refused.
   */
  cachedAccess?(endpoint: EndpointName, request: GateRequest): unknown;
  /** Sets the rate-limit headers, without counting, on a response refused before admit(). */
  annotate(principal: unknown, reply: FastifyReply): Promise<void> | void;
  /** Counts the finished response towards the caller's usage, and logs it. */
  recordOutcome(request: AnsweredRequest, status: number, durationMs?: number): void;
}

export interface V1Deps extends RouteDeps {
  gate: Gatekeeper;
  /** Compressed forms of answers, kept so that a body is compressed once. */
  compressed: CompressedCache;
}

const ALLOWED = 'GET, HEAD';

/**
 * A /v1/codes/… path that routes nowhere is most often a code id with a raw
 * "/" in it (`/v1/codes/icd10:A/B`): the router reads that "/" as a path
 * separator, so the message says how to send it. Under /v1/systems/, the
 * system name is what is missing or at fault.
 */
function noRoute(request: FastifyRequest): ApiError {
  const path = request.originalUrl.split('?')[0]!;
  const shown = `No route ${request.method} ${loggableUrl(path)} under /v1.`;
  if (path === '/v1/codes/') {
    return new ApiError('route_not_found', `${shown} Send a code id after /v1/codes/, e.g. /v1/codes/iso4217:EUR.`, { param: 'code_id' });
  }
  if (path.startsWith('/v1/codes/')) {
    return new ApiError(
      'route_not_found',
      `${shown} The paths under /v1/codes are /v1/codes/{code_id} and its /changes, /children, /descendants and /ancestors, and /v1/codes/batch: if the code id contains "/", percent-encode each "/" as %2F (icd10:A/B is sent as /v1/codes/icd10:A%2FB).`,
      { param: 'code_id' },
    );
  }
  if (path.startsWith('/v1/systems/')) {
    return new ApiError(
      'route_not_found',
      `${shown} The paths under /v1/systems are /v1/systems/{system} and its /releases and /roots: send a system name, e.g. /v1/systems/iso4217.`,
      { param: 'system' },
    );
  }
  return new ApiError('route_not_found', shown);
}
const PATHS = [
  '/codes',
  '/codes/search',
  '/codes/:code_id',
  '/codes/:code_id/changes',
  '/changes',
  '/systems',
  '/systems/:system',
  '/systems/:system/releases',
  '/codes/:code_id/children',
  '/codes/:code_id/descendants',
  '/codes/:code_id/ancestors',
  '/systems/:system/roots',
];

export async function v1Plugin(app: FastifyInstance, deps: V1Deps): Promise<void> {
  const { gate } = deps;

  /** missing: no such route; endpoint undefined (and not missing): a method the path does not allow. */
  const checks = async (request: FastifyRequest, reply: FastifyReply, missing: boolean, endpoint: EndpointName | undefined): Promise<void> => {
    const principal = await gate.authenticate(request);
    let refusal: ApiError | null = null;
    if (missing) {
      refusal = noRoute(request);
    } else if (endpoint === undefined) {
      const allow = request.routeOptions.config.allow!;
      refusal = new ApiError('method_not_allowed', `${request.method} is not allowed here; allowed: ${allow}.`, { headers: { Allow: allow } });
    }
    try {
      if (refusal) throw refusal;
      await gate.admit(principal, endpoint!, request, reply);
    } catch (error) {
      // Refused before the limits were consulted: still tell the caller where it stands.
      if (!reply.hasHeader('ratelimit')) await gate.annotate(principal, reply);
      throw error;
    }
  };

  // Callback style: nearly every request is admitted at once (admitNow), without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    // An empty {code_id} or {system} (GET /v1/codes/, /v1/systems//roots) names no resource: no such route.
    // The stand-ins that answer 405 name no endpoint.
    const params = request.params as { code_id?: string; system?: string };
    const missing = request.is404 || params.code_id === '' || params.system === '';
    const endpoint = missing ? undefined : request.routeOptions.config.endpoint;
    if (endpoint !== undefined && gate.admitNow !== undefined) {
      try {
        if (gate.admitNow(endpoint, request, reply)) return done(pathRefusal(request) ?? undefined);
      } catch (error) {
        // A 401 before anything was counted, or a 429 with its RateLimit fields: as the two steps would refuse it.
        return done(error as Error);
      }
    }
    checks(request, reply, missing, endpoint).then(() => done(pathRefusal(request) ?? undefined), done);
  });

  app.addHook('onResponse', (request, reply, done) => {
    gate.recordOutcome(request, reply.statusCode, reply.elapsedTime);
    done();
  });

  // ETag, 304 and compression: before the routes, whose documentation it completes.
  registerRepresentations(app, { cache: deps.compressed });

  const routeDeps = { store: deps.store, cursors: deps.cursors, bodies: deps.bodies };
  await app.register(codesRoutes, routeDeps);
  await app.register(searchRoutes, routeDeps);
  await app.register(systemsRoutes, routeDeps);
  await app.register(changesRoutes, routeDeps);
  await app.register(hierarchyRoutes, routeDeps);
  await app.register(batchRoutes, routeDeps);

  for (const url of PATHS) {
    app.route({
      // Every method Fastify routes (TRACE, SEARCH, PROPFIND, …) but the allowed ones.
      method: app.supportedMethods.filter((m) => m !== 'GET' && m !== 'HEAD'),
      url,
      config: { allow: ALLOWED },
      schema: { hide: true },
      handler: async () => {
        throw new ApiError('method_not_allowed', `Allowed: ${ALLOWED}.`, { headers: { Allow: ALLOWED } });
      },
    });
  }
  app.route({
    method: app.supportedMethods.filter((m) => m !== 'POST'),
    url: '/codes/batch',
    config: { allow: 'POST' },
    schema: { hide: true },
    handler: async () => {
      throw new ApiError('method_not_allowed', 'Allowed: POST.', { headers: { Allow: 'POST' } });
    },
  });

  app.setNotFoundHandler(async () => {
    throw new ApiError('route_not_found', 'No such route under /v1.');
  });
}
