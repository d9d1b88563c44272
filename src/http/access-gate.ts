/**
 * The access-control Gatekeeper for /v1: API key authentication (401), the
 * plan's endpoints (403), the monthly allowance and the minute rate (429),
 * the RateLimit headers, and per-key usage by outcome.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_PLANS, outcomeOf, type EndpointName, type KeyMode, type Plan, type Principal } from '../domain/access.ts';
import { ApiError } from '../errors.ts';
import type { Deps } from '../deps.ts';
import type { AccessCheck, LimitDecision } from '../domain/limits.ts';
import { KEY_PATTERN } from '../services/access/api-keys.ts';
import type { KeyCache, KeyLookup } from '../services/access/key-cache.ts';
import type { UsageRecorder } from '../services/access/usage-recorder.ts';
import type { RequestLogRecorder } from '../services/access/request-log.ts';
import { isExpired } from '../domain/key-life.ts';
import { headerLines } from './header-lines.ts';
import { requestLogEntry } from './request-log-entry.ts';
import type { Gatekeeper, GateRequest, HeaderSink } from './v1.ts';

export type AccessGateDeps = Pick<Deps, 'store' | 'limiter'> & {
  keys: KeyCache;
  usage: UsageRecorder;
  now: () => number;
  requestLog?: RequestLogRecorder;
};

const STANDARD_PLANS = new Set(DEFAULT_PLANS.map((p) => p.name));

const HOW = 'Send your API key as "Authorization: Bearer <key>" (or "X-API-Key: <key>").';

/** RFC 9110 §11.6.1: a 401 names the scheme that would be accepted (RFC 6750's Bearer; X-API-Key is the alternative). */
export const CHALLENGE: Readonly<Record<string, string>> = Object.freeze({ 'WWW-Authenticate': 'Bearer realm="codebook"' });

function unauthorized(message: string): ApiError {
  return new ApiError('invalid_api_key', `${message} ${HOW}`, { headers: CHALLENGE });
}

/** The one key a request presents, or a 401 for anything ambiguous or malformed. */
export function presentedKey(request: { headers: IncomingHttpHeaders; raw: { rawHeaders: string[] } }): string {
  const authorization = request.headers.authorization;
  const headerKey = request.headers['x-api-key'];
  let key: string | undefined;
  if (authorization !== undefined) {
    // Node keeps only the first of repeated Authorization headers: refuse the ambiguity instead.
    if (headerLines(request.raw.rawHeaders, 'authorization') > 1) throw unauthorized('Send one Authorization header.');
    // The scheme right and the key missing ("Bearer ", which Node trims to "Bearer").
    if (/^Bearer *$/i.test(authorization)) throw unauthorized('The Authorization header holds no key after Bearer.');
    const match = /^Bearer +([^\s]+) *$/i.exec(authorization);
    if (!match) throw unauthorized('The Authorization header must use the Bearer scheme.');
    key = match[1];
  }
  if (headerKey !== undefined) {
    // Node joins repeated X-API-Key headers into one value ("k, k"), which would read as a malformed key: count the lines.
    if (typeof headerKey !== 'string' || headerLines(request.raw.rawHeaders, 'x-api-key') > 1) throw unauthorized('Send one X-API-Key header.');
    // An empty header is no second key beside a Bearer one, but it is not nothing either: say what was sent.
    if (headerKey === '') throw unauthorized('The X-API-Key header is empty.');
    if (key !== undefined && key !== headerKey) throw unauthorized('Two different API keys were sent.');
    key = headerKey;
  }
  if (key === undefined) throw unauthorized('No API key was sent.');
  if (!KEY_PATTERN.test(key)) throw unauthorized('The API key is malformed.');
  return key;
}

function rateLimitHeaders(d: LimitDecision): Record<string, string> {
  const minutePolicy = `"minute";q=${d.minute.limit};w=60`;
  const minuteState = `"minute";r=${d.minute.remaining};t=${d.minute.resetSeconds}`;
  if (d.month.limit === null) return { 'RateLimit-Policy': minutePolicy, RateLimit: minuteState };
  return {
    'RateLimit-Policy': `${minutePolicy}, "month";q=${d.month.limit}`,
    RateLimit: `${minuteState}, "month";r=${d.month.remaining};t=${d.month.resetSeconds}`,
  };
}

/**
 * The RateLimit field of a counted request the service failed (5xx): the month
 * gets the request back (recordOutcome), so one more remains than at admission.
 */
export function givenBackToMonth(rateLimit: string): string {
  return rateLimit.replace(/"month";r=(\d+)/, (_, r: string) => `"month";r=${Number(r) + 1}`);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request's key is authenticated. */
    principal?: Principal;
    /** When the limits admitted and counted the request (ms); unset while it is not counted. */
    countedAt?: number;
  }
}

/** A principal and the limiter version its key lookup holds for (null: nothing for the limiter to check). */
interface CheckedPrincipal extends Principal {
  accessVersion: number | null;
}

/** Fresh lookups after the limiter found a cached one out of date; then the last fresh one is taken as it is. */
const MAX_FRESH_LOOKUPS = 2;

function accessCheck(p: CheckedPrincipal, fresh: number): AccessCheck | undefined {
  return p.accessVersion === null || fresh >= MAX_FRESH_LOOKUPS ? undefined : { version: p.accessVersion };
}

export function createAccessGate(deps: AccessGateDeps): Gatekeeper {
  const { keys, limiter, usage, now, store } = deps;

  /** The request's principal from a lookup of its key; 401 for an unknown, revoked or expired key. */
  const accept = (request: GateRequest, found: KeyLookup | null, accessVersion: number | null, at: number): CheckedPrincipal => {
    if (found === null) throw unauthorized('The API key is not valid.');
    // Expiry is checked here, at each request, against the clock: no process has to run at the moment a key ends.
    if (refusedKey(found, at)) {
      usage.recordRefusal(found.key.id, at);
      throw unauthorized('The API key is not valid.');
    }
    const principal: CheckedPrincipal = { keyId: found.key.id, mode: found.key.mode, org: found.org, plan: found.plan, accessVersion };
    request.principal = principal;
    request.keyPrefix = found.key.displayPrefix;
    return principal;
  };

  const authenticate = async (request: FastifyRequest): Promise<CheckedPrincipal> => {
    const { found, accessVersion } = await keys.lookupVersioned(presentedKey(request));
    return accept(request, found, accessVersion, now());
  };

  /** The limiter found the cached lookup out of date (revoked or changed elsewhere): look the key up afresh. */
  const reauthenticate = (request: FastifyRequest): Promise<CheckedPrincipal> => {
    request.principal = undefined;
    return authenticate(request);
  };

  return {
    authenticate,

    cachedAccess(endpoint, request) {
      const found = keys.cached(presentedKey(request));
      if (found === null) throw unauthorized('The API key is not valid.');
      // A revoked or expired key is refused by accept(), which notes the refusal: admitNow() and admit() do that.
      if (found === undefined || !includes(found.plan, found.key.mode, endpoint) || refusedKey(found, now())) return undefined;
      return found;
    },

    admitNow(endpoint, request, reply, access) {
      const found = access === undefined ? keys.cached(presentedKey(request)) : (access as KeyLookup);
      if (found === undefined || (found !== null && !includes(found.plan, found.key.mode, endpoint))) return false;
      const at = now();
      const principal = accept(request, found, null, at);
      const decision = limiter.consumeNow?.(principal.org.id, principal.plan, at);
      if (decision === undefined) return false;
      if (decision.allowed) request.countedAt = at;
      admitted(decision, principal, reply);
      return true;
    },

    async admit(p, endpoint: EndpointName, request, reply) {
      let principal = p as CheckedPrincipal;
      for (let fresh = 0; ; fresh++) {
        const access = accessCheck(principal, fresh);
        const { plan, org } = principal;
        if (!includes(plan, principal.mode, endpoint)) {
          if (access) {
            // A refusal from a cached plan must hold now too: the limiter vouches for it first.
            const state = await limiter.peek(org.id, plan, now(), access);
            if (state.stale) {
              principal = await reauthenticate(request);
              continue;
            }
            reply.headers(rateLimitHeaders(state));
          }
          if (principal.mode === 'test' && !plan.testKeysAllowed && plan.endpoints.includes(endpoint)) {
            throw new ApiError('endpoint_not_available_on_plan', `The ${plan.name} plan does not allow test keys; use a live key.`);
          }
          // Only the standard plans are named: a plan an operator made may be one customer's own business.
          const including = (await store.access.listPlans()).filter((x) => STANDARD_PLANS.has(x.name) && x.endpoints.includes(endpoint)).map((x) => x.name);
          throw new ApiError(
            'endpoint_not_available_on_plan',
            `This endpoint (${endpoint}) is not part of the ${plan.name} plan.${including.length > 0 ? ` Plans that include it: ${including.join(', ')}.` : ''}`,
          );
        }
        const at = now();
        const decision = await limiter.consume(org.id, plan, at, access);
        if (decision.stale) {
          principal = await reauthenticate(request);
          continue;
        }
        if (decision.allowed) request.countedAt = at;
        admitted(decision, principal, reply);
        return;
      }
    },

    async annotate(p, reply) {
      // A re-authentication during admit() refused the key: that 401 stands, with nothing to annotate.
      if (!reply.request.principal) return;
      let principal = p as CheckedPrincipal;
      let state = await limiter.peek(principal.org.id, principal.plan, now(), accessCheck(principal, 0));
      if (state.stale) {
        principal = await reauthenticate(reply.request);
        state = await limiter.peek(principal.org.id, principal.plan, now());
      }
      reply.headers(rateLimitHeaders(state));
    },

    recordOutcome(request, status, durationMs) {
      const { principal, countedAt } = request;
      if (!principal) return;
      const at = now();
      // A counted request is in usage where the limits counted it: its month's report adds up across midnight.
      usage.record(principal.keyId, countedAt ?? at, outcomeOf(status, countedAt !== undefined));
      deps.requestLog?.record(requestLogEntry(request, principal, status, at, durationMs ?? 0));
      // The service failed a request the limits counted: the month gets it back, the minute keeps it.
      if (status >= 500 && countedAt !== undefined) void limiter.giveBack(principal.org.id, countedAt);
    },
  };
}

/** Whether a stored key is refused at this moment: revoked, or past its expiry (checked at each request, against the clock). */
function refusedKey(found: KeyLookup, at: number): boolean {
  return found.key.revokedAt !== null || isExpired(found.key, at);
}

/** Whether the plan lets a key of this mode call the endpoint. */
function includes(plan: Plan, mode: KeyMode, endpoint: EndpointName): boolean {
  return plan.endpoints.includes(endpoint) && (mode !== 'test' || plan.testKeysAllowed);
}

/** Sets the RateLimit fields; throws the 429 of the limit that refused, if one did. */
function admitted(decision: LimitDecision, principal: Principal, reply: HeaderSink): void {
  const { plan } = principal;
  reply.headers(rateLimitHeaders(decision));
  if (decision.refusedBy === 'month') {
    throw new ApiError(
      'monthly_quota_exceeded',
      `The monthly allowance of ${plan.monthlyQuota} requests of the ${plan.name} plan is used up. It resets at ${decision.monthResetsAt.toISOString()} (in ${decision.month.resetSeconds} s).`,
      { headers: { 'Retry-After': String(decision.month.resetSeconds) } },
    );
  }
  if (decision.refusedBy === 'minute') {
    throw new ApiError(
      'rate_limit_exceeded',
      `More than ${plan.ratePerMinute} requests in this minute (${plan.name} plan). The limit resets in ${decision.minute.resetSeconds} s, at the start of the next UTC minute.`,
      { headers: { 'Retry-After': String(decision.minute.resetSeconds) } },
    );
  }
}
