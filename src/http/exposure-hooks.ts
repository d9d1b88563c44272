/**
 * Where the HTTP layer sees a key that has leaked: in the query string (the
 * request is then refused with 400 api_key_in_query, which says nothing about
 * whether the key was valid), in the path, in the Referer header, or in a field of a parsed
 * request body. Each key-shaped text is handed to the ExposureWatch; only a
 * request that holds one pays for anything beyond a substring test.
 */
import type { FastifyRequest } from 'fastify';
import { keyShapedTexts, keyShapedValues } from '../domain/key-shape.ts';
import type { ExposureWatch } from '../services/access/exposure.ts';

function route(request: FastifyRequest): string {
  const path = request.url.split('?')[0]!;
  return `${request.method} ${keyShapedTexts(path).length > 0 ? '[path with a key]' : path}`;
}

export async function watchForExposedKeys(watch: ExposureWatch, request: FastifyRequest): Promise<void> {
  const q = request.url.indexOf('?');
  if (q !== -1) {
    const keys = keyShapedTexts(request.url.slice(q + 1));
    if (keys.length > 0) await watch.report(keys, { via: 'query', address: request.ip, route: route(request) });
  }
  // A key as a path segment (a client's mistake) is in every access log too.
  const pathKeys = keyShapedTexts(q === -1 ? request.url : request.url.slice(0, q));
  if (pathKeys.length > 0) await watch.report(pathKeys, { via: 'path', address: request.ip, route: route(request) });
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    const keys = keyShapedTexts(referer);
    if (keys.length > 0) await watch.report(keys, { via: 'referer', address: request.ip, route: route(request) });
  }
}

export async function watchBodyForKeys(watch: ExposureWatch, request: FastifyRequest): Promise<void> {
  const body: unknown = request.body;
  if (body === undefined || body === null) return;
  const keys = keyShapedValues(body);
  if (keys.length > 0) await watch.report(keys, { via: 'body', address: request.ip, route: route(request) });
}
