/**
 * The express lane: the two answers that make up most of an API's traffic, a
 * code by its id for a key this process holds, and the 401 for a key no one
 * has, written straight to Node's response before Fastify routes the request.
 * Everything else, and every request where anything could come out otherwise,
 * is handed to Fastify untouched, with nothing counted.
 *
 * Why: Fastify's request and reply objects, the child logger and the hook
 * chains cost about half of a get's CPU, while a get's own work (the key, the
 * limits, the read, the tag, the headers, the log) costs the other half
 * (bench/HISTORY.md, "a minimal server beside Codebook"). The lane does that
 * work through the same functions the hooks call (the gate, the catalog, the
 * entity tag, the error body, the metrics, the logger), so the two paths share
 * every rule; test/http/express-lane.test.ts sends the same requests through
 * both and compares status, headers in order, and body.
 *
 * It takes `GET /v1/codes/{code_id}` only when:
 * - the path segment is plain (unreserved characters, no percent escape, no
 *   query string) and not one of the static routes beside it;
 * - the request carries a Host, no body, no If-None-Match, and no key-shaped
 *   text in its URL or Referer (those take the exposure watch's path);
 * - the instance is not draining;
 * - the key is known or surely unknown without a query, and its plan has the
 *   endpoint; the record is read at once and is too small ever to be
 *   compressed; the limits decide at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../errors.ts';
import { getCodeNow, type CatalogStore } from '../services/catalog.ts';
import { mayHoldKeyShape } from '../domain/key-shape.ts';
import type { Principal } from '../domain/access.ts';
import type { ErrorCode } from '../errors.ts';
import { entityTag } from './entity-tags.ts';
import { errorBody } from './error-body.ts';
import { completedFields } from './logging.ts';
import { COMPRESSION_THRESHOLD, CACHE_CONTROL } from './representations.ts';
import { newRequestId } from './request-id.ts';
import { JSON_TYPE } from './routes/v1-types.ts';
import type { Metrics } from './metrics.ts';
import type { Gatekeeper, GateRequest, HeaderSink } from './v1.ts';

export interface ExpressLaneDeps {
  gate: Gatekeeper;
  store: CatalogStore;
  metrics: Metrics;
  log: FastifyBaseLogger;
  /** True once the app has begun to close: every request then takes Fastify's path (503). */
  draining: () => boolean;
}

const PREFIX = '/v1/codes/';
/** The route the metrics count these requests under, as Fastify names it. */
const ROUTE = '/v1/codes/:code_id';
/** Fastify's maxParamLength (app.ts): a longer segment is its routing error. */
const MAX_SEGMENT = 2048;
/** RFC 3986 unreserved and sub-delimiter characters, ":" and "@": a segment the router and the lane read alike. */
const PLAIN_SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;
/** Static routes under /v1/codes/ that the router prefers to {code_id}. */
const STATIC = new Set(['search', 'batch']);

/** The lane's stand-in for Fastify's request: what the gate and the request log read of it and note on it. */
class LaneRequest implements GateRequest {
  readonly id = newRequestId();
  readonly started = performance.now();
  readonly method = 'GET';
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly raw: IncomingMessage;
  principal?: Principal;
  keyPrefix?: string;
  countedAt?: number;
  errorCode?: ErrorCode;

  constructor(raw: IncomingMessage) {
    this.raw = raw;
    this.url = raw.url!;
    this.headers = raw.headers;
  }
}

/** The response's header fields, in the order the Fastify path sets them (the Request-Id first), as writeHead takes them. */
class LaneFields implements HeaderSink {
  readonly list: string[];
  constructor(requestId: string) {
    this.list = ['request-id', requestId];
  }
  headers(values: Record<string, string>): this {
    for (const name in values) this.list.push(name.toLowerCase(), values[name]!);
    return this;
  }
}

/** Whether the lane may answer this request at all (before the key is looked at). */
function eligible(req: IncomingMessage): string | null {
  if (req.method !== 'GET') return null;
  const url = req.url!;
  if (!url.startsWith(PREFIX)) return null;
  const segment = url.slice(PREFIX.length);
  if (segment.length === 0 || segment.length > MAX_SEGMENT || STATIC.has(segment) || !PLAIN_SEGMENT.test(segment)) return null;
  const h = req.headers;
  if (h.host === undefined || h['if-none-match'] !== undefined || h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) return null;
  if (mayHoldKeyShape(url) || (h.referer !== undefined && mayHoldKeyShape(h.referer))) return null;
  return segment;
}

/**
 * The request handler to install in front of Fastify's: true when it answered
 * the request, false when Fastify must (and then nothing was counted or sent).
 */
export function expressLane(deps: ExpressLaneDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { gate, store, metrics, log } = deps;
  if (gate.admitNow === undefined || gate.cachedAccess === undefined) return () => false;

  // Fastify's logger when it has one; its stand-in when logging is off (tests) has no levels.
  const levels = log as { isLevelEnabled?: (level: string) => boolean };
  const logsRequests = (): boolean => levels.isLevelEnabled?.('info') === true;

  const finish = (request: LaneRequest, res: ServerResponse): void => {
    res.once('finish', () => {
      const ms = performance.now() - request.started;
      metrics.request(ROUTE, res.statusCode, ms / 1000);
      metrics.expressLane();
      gate.recordOutcome(request, res.statusCode, ms);
      // The line Fastify's request log writes (logging.ts), request_id as its child logger binds it.
      if (logsRequests()) {
        log.info({ request_id: request.id, ...completedFields(request, res, ms) }, 'request completed');
      }
    });
  };

  /** As sendError (error-handler.ts) answers it. */
  const refuse = (request: LaneRequest, fields: LaneFields, res: ServerResponse, error: ApiError): void => {
    request.errorCode = error.code;
    if (error.headers) fields.headers(error.headers);
    const body = errorBody(error, request.id);
    fields.list.push('content-type', JSON_TYPE, 'content-length', String(Buffer.byteLength(body)));
    finish(request, res);
    res.writeHead(error.status, fields.list);
    res.end(body);
  };

  return (req, res) => {
    if (deps.draining()) return false;
    const segment = eligible(req);
    if (segment === null) return false;
    const request = new LaneRequest(req);
    const fields = new LaneFields(request.id);
    let access: unknown;
    let json: string | undefined;
    try {
      // First without counting: whether the key, its plan and the record let the lane answer at all.
      access = gate.cachedAccess!('codes.get', request);
      if (access === undefined) return false;
      json = getCodeNow(store, segment);
    } catch (error) {
      // A key refused before anything was counted (401); any other failure is Fastify's to answer.
      if (error instanceof ApiError && error.code === 'invalid_api_key') {
        refuse(request, fields, res, error);
        return true;
      }
      return false;
    }
    if (json === undefined || json.length >= COMPRESSION_THRESHOLD) return false;
    try {
      if (!gate.admitNow!('codes.get', request, fields, access)) return false;
    } catch (error) {
      // 429 (counted, with its RateLimit fields) or 401, as the hooks would answer them.
      if (!(error instanceof ApiError)) throw error;
      refuse(request, fields, res, error);
      return true;
    }
    fields.list.push('content-type', JSON_TYPE, 'etag', entityTag(json), 'cache-control', CACHE_CONTROL, 'content-length', String(Buffer.byteLength(json)));
    finish(request, res);
    res.writeHead(200, fields.list);
    res.end(json);
    return true;
  };
}
