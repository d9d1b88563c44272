/**
 * The OpenAPI side of conditional requests and compression, derived from the
 * route table: every /v1 GET operation that answers 200 documents the ETag,
 * Cache-Control, Vary and Content-Encoding headers, and a 304 with no body; a
 * POST's 200 (the batch), compressed the same way but with no tag, documents
 * Vary and Content-Encoding.
 */
import type { RouteOptions } from 'fastify';

const header = (description: string, example: string) => ({ type: 'string', description, examples: [example] });

const ETAG = header(
  'Entity tag of this answer: the same body always has the same tag, a different body never does. Send it back in `If-None-Match` to get `304 Not Modified` while the answer is unchanged. A compressed answer carries the weak form (`W/"…"`) of the same tag.',
  '"Xq2bD0r9h1Zk3mJc7TnLwQ"',
);
const CACHE_CONTROL = header(
  '`private, no-cache`: the answer is for the caller only, and a cache must revalidate it (with `If-None-Match`) before each reuse.',
  'private, no-cache',
);
const VARY = header('`Accept-Encoding` on answers large enough to be compressed (1 024 characters of JSON or more).', 'Accept-Encoding');
const CONTENT_ENCODING = header(
  "`br` or `gzip` when the request's `Accept-Encoding` accepts one of them (weights and `identity` honoured) and the body is at least 1 024 characters of JSON; absent otherwise.",
  'br',
);

const REQUEST_ID = { type: 'string', description: 'Identifies the request.', examples: ['req_9bf2773cfa844df4857447ca197256b5'] };

type Schema = Record<string, unknown>;

/** onRoute hook: adds the headers of conditional requests and compression to the documentation of a route with a 200 answer. */
export function representationDocs(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const response = (route.schema as { response?: Record<string, Schema> } | undefined)?.response;
  const ok = response?.[200];
  if (ok === undefined || response === undefined) return;
  const okHeaders = (ok.headers ?? {}) as Record<string, Schema>;
  if (methods.includes('POST')) {
    // Compressed like a GET's answer (representations.ts), with no tag and so no 304.
    route.schema = { ...route.schema, response: { ...response, 200: { ...ok, headers: { ...okHeaders, Vary: VARY, 'Content-Encoding': CONTENT_ENCODING } } } };
    return;
  }
  if (!methods.includes('GET')) return;
  const { 'RateLimit-Policy': policy, RateLimit: rateLimit } = okHeaders;
  route.schema = {
    ...route.schema,
    response: {
      ...response,
      200: { ...ok, headers: { ...okHeaders, ETag: ETAG, 'Cache-Control': CACHE_CONTROL, Vary: VARY, 'Content-Encoding': CONTENT_ENCODING } },
      304: {
        type: 'null',
        description:
          "Not Modified: the request's `If-None-Match` names the current tag (or is `*`), so the answer you hold is still current. No body. Counted like a `200` toward the minute rate and the monthly allowance.",
        headers: {
          'Request-Id': okHeaders['Request-Id'] ?? REQUEST_ID,
          ETag: ETAG,
          'Cache-Control': CACHE_CONTROL,
          Vary: VARY,
          ...(policy ? { 'RateLimit-Policy': policy } : {}),
          ...(rateLimit ? { RateLimit: rateLimit } : {}),
        },
      },
    },
  };
}
