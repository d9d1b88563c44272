/**
 * A /v1 path with a segment that does not decode (`/v1/codes/a:%ZZ`,
 * `/v1/codes/demo:%FF/changes`) or that is longer than the router takes names
 * a route with a bad parameter, and is answered as one: after the key, the
 * route, the plan and the limits, as the order of checks puts parameters
 * (counted, with its RateLimit fields).
 *
 * Fastify's router cannot route such a path at all. So, before routing, each
 * such segment is made routable (an undecodable one with its `%` escaped, so
 * its parameter is the segment as sent; an over-long one as `_`) and the
 * request is marked; the /v1 hooks refuse it once the limits have admitted
 * it. Every other path, which is all but these, is routed as it is. A target in
 * absolute form (`GET http://host/v1/…`) is treated the same way.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

/** Fastify's maxParamLength (app.ts): the longest segment its router takes. */
export const MAX_SEGMENT = 2048;

export const UNDECODABLE_PATH = 'The request path is not valid percent-encoding: send each reserved or non-ASCII byte as %XX.';
export const SEGMENT_TOO_LONG = 'A path segment is too long.';

const FAULT = Symbol('path fault');

type MarkedMessage = IncomingMessage & { [FAULT]?: string };

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the path starts in a request target: 0 in origin form (`/v1/…`); after the authority in
 * absolute form (`http://host/v1/…`, the scheme in any case), where the router finds it by the
 * same rule (find-my-way's getPathFromAbsoluteUrl: the authority ends at the first `/` or `?`);
 * -1 when there is no path to route (none, a query right after the authority, or a fragment).
 */
function pathStart(url: string): number {
  if (url.startsWith('/')) return 0;
  const schemeEnd = url.indexOf('://');
  if (schemeEnd === -1) return -1;
  const scheme = url.slice(0, schemeEnd).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return -1;
  const authority = schemeEnd + 3;
  const path = url.indexOf('/', authority);
  const query = url.indexOf('?', authority);
  if (path === -1 || (query !== -1 && query < path) || url.includes('#', authority)) return -1;
  return path;
}

/** Whether a request target, in origin or absolute form, names a /v1 path. */
export function isV1Target(target: string): boolean {
  const start = pathStart(target);
  return start !== -1 && target.startsWith('/v1/', start);
}

/** Fastify's rewriteUrl: the URL to route, the same unless a /v1 path cannot be routed as it is (then marked). */
export function routableUrl(req: IncomingMessage): string {
  const target = req.url!;
  const start = pathStart(target);
  if (start === -1 || !target.startsWith('/v1/', start)) return target;
  const origin = target.slice(0, start);
  const url = target.slice(start);
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path.length <= MAX_SEGMENT && (!path.includes('%') || decodes(path))) return target;
  let fault: string | undefined;
  const routable = path
    .split('/')
    .map((segment) => {
      const escaped = decodes(segment) ? segment : ((fault ??= UNDECODABLE_PATH), segment.replaceAll('%', '%25'));
      if (escaped.length <= MAX_SEGMENT) return escaped;
      fault ??= SEGMENT_TOO_LONG;
      return '_';
    })
    .join('/');
  if (fault === undefined) return target;
  (req as MarkedMessage)[FAULT] = fault;
  return origin + (query === -1 ? routable : routable + url.slice(query));
}

/** The 400 of a request whose path could not be routed as it was sent, once admitted; null for every other request. */
export function pathRefusal(request: FastifyRequest): ApiError | null {
  const fault = (request.raw as MarkedMessage)[FAULT];
  if (fault === undefined) return null;
  return new ApiError('invalid_parameter', fault, { param: 'code_id' in (request.params as object) ? 'code_id' : 'system' });
}
