/**
 * Where the HTTP layer sees a key that has leaked: in the query string (the
 * request is then refused with 400 api_key_in_query, which says nothing about
 * whether the key was valid), in the path, in the Referer header, or in a field of a parsed
 * request body. Each key-shaped text is handed to the ExposureWatch; only a
 * request that holds one pays for anything beyond a substring test: for every
 * other request these return null, not a promise, so the hooks that call them
 * go on at once.
 */
import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import { keyShapedTexts, keyShapedValues, mayHoldKeyShape } from '../domain/key-shape.ts';
import type { ExposureWatch } from '../services/access/exposure.ts';
import type { ExposureVia } from '../domain/key-life-records.ts';

function route(request: FastifyRequest): string {
  const path = request.originalUrl.split('?')[0]!;
  return `${request.method} ${keyShapedTexts(path).length > 0 ? '[path with a key]' : path}`;
}

/** Reports the keys found in the URL (query and path) and the Referer, in that order; null when there are none. */
export function watchForExposedKeys(watch: ExposureWatch, request: FastifyRequest): Promise<void> | null {
  const referer = request.headers.referer;
  // As sent: a path the router cannot take is routed as another (unroutable-path.ts).
  const url = request.originalUrl;
  // Nearly every request: one test of the URL (and of a Referer), nothing allocated.
  if (!mayHoldKeyShape(url) && (typeof referer !== 'string' || !mayHoldKeyShape(referer))) return null;
  const found: [ExposureVia, string[]][] = [];
  const q = url.indexOf('?');
  if (q !== -1) found.push(['query', keyShapedTexts(url.slice(q + 1))]);
  // A key as a path segment (a client's mistake) is in every access log too.
  found.push(['path', keyShapedTexts(q === -1 ? url : url.slice(0, q))]);
  if (typeof referer === 'string') found.push(['referer', keyShapedTexts(referer)]);
  return reportAll(watch, request, found);
}

/** Reports the keys found in the fields of a parsed body; null when there are none. */
export function watchBodyForKeys(watch: ExposureWatch, request: FastifyRequest): Promise<void> | null {
  const body: unknown = request.body;
  if (body === undefined || body === null) return null;
  return reportAll(watch, request, [['body', keyShapedValues(body)]]);
}

/**
 * The hook that watches a parsed body, for every route that takes one and for the not-found
 * handlers (which parse a body too, and are no route: see app.ts's onRoute). It runs first of
 * the preValidation hooks, before any check of the body or its type can refuse the request: a
 * key in a field the route does not know, or in a body of the wrong type, has leaked all the same.
 */
export function bodyWatch(watch: ExposureWatch): preValidationHookHandler {
  return (request, _reply, done) => {
    const marking = watchBodyForKeys(watch, request);
    if (marking === null) return done();
    marking.then(() => done(), done);
  };
}

function reportAll(watch: ExposureWatch, request: FastifyRequest, found: [ExposureVia, string[]][]): Promise<void> | null {
  const reports = found.filter(([, keys]) => keys.length > 0);
  if (reports.length === 0) return null;
  return (async () => {
    for (const [via, keys] of reports) await watch.report(keys, { via, address: request.ip, route: route(request) });
  })();
}
