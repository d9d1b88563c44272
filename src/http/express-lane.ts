/**
 * The express lane: the answers that make up most of an API's traffic, a code
 * by its id and a page asked for again, for a key this process holds, and the
 * 401 for a key no one has, written straight to Node's response before Fastify
 * routes the request.
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
 * - the request carries one sound Host, no body, no If-None-Match, and no key-shaped
 *   text in its URL or Referer (those take the exposure watch's path);
 * - the instance is not draining;
 * - the key is known or surely unknown without a query, and its plan has the
 *   endpoint; the record is read at once and is too small ever to be
 *   compressed; the limits decide at once.
 *
 * And `GET /v1/codes` or `GET /v1/changes`, with any query (`as_of` too),
 * under the same conditions, when the read cache holds the answer the full
 * path kept for this very URL (kept-answers.ts) and, for a client that accepts
 * a coding the body is compressed in, the compressed cache holds that form.
 * The lane reads nothing of the query: a kept answer exists only for a URL
 * that the full path checked and answered 200 under the data still current,
 * and the answer depends on nothing else.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../errors.ts';
import { lookCodeNow, type CatalogStore, type CodeLook } from '../services/catalog.ts';
import type { EndpointName } from '../domain/access.ts';
import { chooseCoding, type ContentCoding } from './accept-encoding.ts';
import type { CompressedCache } from './compressed-cache.ts';
import type { BodyBuffers } from './body-buffers.ts';
import { hostProblem } from './host-field.ts';
import { MAX_KEPT_URL } from './kept-answers.ts';
import { mayHoldKeyShape } from '../domain/key-shape.ts';
import type { Principal } from '../domain/access.ts';
import type { ErrorCode } from '../errors.ts';
import { entityTag, weakened } from './entity-tags.ts';
import { ERROR_CACHE_CONTROL, errorBody } from './error-body.ts';
import { MAX_SEGMENT } from './unroutable-path.ts';
import { completedFields } from './logging.ts';
import { COMPRESSION_THRESHOLD, CACHE_CONTROL } from './representations.ts';
import { newRequestId } from './request-id.ts';
import { JSON_TYPE } from './routes/v1-types.ts';
import type { Metrics } from './metrics.ts';
import type { Gatekeeper, GateRequest, HeaderSink } from './v1.ts';

export interface ExpressLaneDeps {
  gate: Gatekeeper;
  store: CatalogStore;
  /** Where page bodies are written (the full path's, body-buffers.ts). */
  bodies: BodyBuffers;
  /** The compressed forms the full path keeps (representations.ts). */
  compressed: CompressedCache;
  metrics: Metrics;
  log: FastifyBaseLogger;
  /** True once the app has begun to close: every request then takes Fastify's path (503). */
  draining: () => boolean;
}

const PREFIX = '/v1/codes/';
/** The route the metrics count these requests under, as Fastify names it. */
const ROUTE = '/v1/codes/:code_id';
/** The page routes the lane answers from kept answers: path → [route as Fastify names it, endpoint]. */
const PAGE_ROUTES = new Map<string, [string, EndpointName]>([
  ['/v1/codes', ['/v1/codes', 'codes.list']],
  ['/v1/changes', ['/v1/changes', 'changes.list']],
]);
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

  /** The lane routes no URL but the one sent. */
  get originalUrl(): string {
    return this.url;
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

/** A kept page as the lane sends it: its bytes (compressed in coding, or in place in the read cache), its strong tag. */
interface KeptPage {
  bytes: Buffer;
  tag: string;
  coding: ContentCoding | null;
  /** 1 KiB or more: answered with Vary: Accept-Encoding, and compressed for a client that takes a coding. */
  compressible: boolean;
}

/** What the lane may answer, before the key is looked at: a record by its id, or a page by its URL. */
type Target = { segment: string } | { page: [string, EndpointName] };

/** Whether the lane may answer this request at all (before the key is looked at). */
function eligible(req: IncomingMessage): Target | null {
  if (req.method !== 'GET') return null;
  const url = req.url!;
  let target: Target;
  if (url.startsWith(PREFIX)) {
    const segment = url.slice(PREFIX.length);
    if (segment.length === 0 || segment.length > MAX_SEGMENT || STATIC.has(segment) || !PLAIN_SEGMENT.test(segment)) return null;
    target = { segment };
  } else {
    const query = url.indexOf('?');
    const page = PAGE_ROUTES.get(query === -1 ? url : url.slice(0, query));
    if (page === undefined || url.length > MAX_KEPT_URL) return null;
    target = { page };
  }
  const h = req.headers;
  if (
    h.host === undefined ||
    hostProblem(req) !== null ||
    h['if-none-match'] !== undefined ||
    h['content-length'] !== undefined ||
    h['transfer-encoding'] !== undefined
  )
    return null;
  if (mayHoldKeyShape(url) || (h.referer !== undefined && mayHoldKeyShape(h.referer))) return null;
  return target;
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

  const finish = (request: LaneRequest, res: ServerResponse, route: string): void => {
    res.once('finish', () => {
      const ms = performance.now() - request.started;
      metrics.request(route, res.statusCode, ms / 1000);
      metrics.expressLane();
      gate.recordOutcome(request, res.statusCode, ms);
      // The line Fastify's request log writes (logging.ts), request_id as its child logger binds it.
      if (logsRequests()) {
        log.info({ request_id: request.id, ...completedFields(request, res, ms) }, 'request completed');
      }
    });
  };

  /** As sendError (error-handler.ts) answers it. */
  const refuse = (request: LaneRequest, fields: LaneFields, res: ServerResponse, route: string, error: ApiError): void => {
    request.errorCode = error.code;
    if (error.headers) fields.headers(error.headers);
    const body = errorBody(error, request.id);
    fields.list.push('cache-control', ERROR_CACHE_CONTROL, 'content-type', JSON_TYPE, 'content-length', String(Buffer.byteLength(body)));
    finish(request, res, route);
    res.writeHead(error.status, fields.list);
    res.end(body);
  };

  /**
   * The page kept for this URL as the client takes it: in place (copy before anything else is kept), or the form
   * compressed in the coding it accepts, when the compressed cache has it (if not, the full path compresses it).
   * The look is not counted: the full path looks again when the lane leaves the request to it.
   */
  const keptPage = (req: IncomingMessage): KeptPage | undefined => {
    const answers = store.answers;
    if (answers === undefined) return undefined;
    answers.open();
    const kept = answers.view(req.url!, false);
    if (kept === undefined || kept.bytes.length < COMPRESSION_THRESHOLD) return kept && { ...kept, coding: null, compressible: false };
    const coding = chooseCoding(req.headers['accept-encoding']);
    if (coding === null) return { ...kept, coding, compressible: true };
    const compressed = deps.compressed.get(kept.tag, coding);
    return compressed && { bytes: compressed, tag: kept.tag, coding, compressible: true };
  };

  return (req, res) => {
    if (deps.draining()) return false;
    const target = eligible(req);
    if (target === null) return false;
    const [route, endpoint] = 'page' in target ? target.page : [ROUTE, 'codes.get' as const];
    const request = new LaneRequest(req);
    const fields = new LaneFields(request.id);
    let access: unknown;
    let look: CodeLook | undefined;
    let page: KeptPage | undefined;
    try {
      // First without counting: whether the key, its plan and the record or page let the lane answer at all.
      access = gate.cachedAccess!(endpoint, request);
      if (access === undefined) return false;
      // Neither look counts in the read cache until the lane answers: a request left to Fastify is counted there. A
      // record the lane read from the store and leaves (1 KiB or more, not kept yet) is read again there, once.
      if ('page' in target) page = keptPage(req);
      else look = lookCodeNow(store, target.segment);
    } catch (error) {
      // A key refused before anything was counted (401); any other failure is Fastify's to answer.
      if (error instanceof ApiError && error.code === 'invalid_api_key') {
        refuse(request, fields, res, route, error);
        return true;
      }
      return false;
    }
    // An unknown code's 404, and a record large enough to be compressed, are Fastify's.
    const json = look?.json;
    if (page === undefined && (json === undefined || json === null || json.length >= COMPRESSION_THRESHOLD)) return false;
    try {
      if (!gate.admitNow!(endpoint, request, fields, access)) return false;
    } catch (error) {
      // 429 (counted, with its RateLimit fields) or 401, as the hooks would answer them.
      if (!(error instanceof ApiError)) throw error;
      refuse(request, fields, res, route, error);
      return true;
    }
    let body: string | Buffer;
    if (page !== undefined) {
      // Copied (a compressed form is a copy already). Nothing since the view was taken kept anything in the read
      // cache: the limits and the usage count do not touch it.
      if (page.coding === null) {
        body = deps.bodies.acquire(page.bytes.length, res);
        page.bytes.copy(body);
      } else body = page.bytes;
      store.answers!.hit();
      // As representations.ts sets them: a compressed form carries the weak tag.
      fields.list.push('content-type', JSON_TYPE, 'etag', page.coding === null ? page.tag : weakened(page.tag), 'cache-control', CACHE_CONTROL);
      if (page.compressible) fields.list.push('vary', 'Accept-Encoding');
      if (page.coding !== null) fields.list.push('content-encoding', page.coding);
      fields.list.push('content-length', String(body.length));
    } else {
      look!.settle();
      body = json!;
      fields.list.push('content-type', JSON_TYPE, 'etag', entityTag(body), 'cache-control', CACHE_CONTROL, 'content-length', String(Buffer.byteLength(body)));
    }
    finish(request, res, route);
    res.writeHead(200, fields.list);
    res.end(body);
    return true;
  };
}
