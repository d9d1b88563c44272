/**
 * The answers of the page routes (/v1/codes, with or without as_of,
 * /v1/changes, /v1/codes/{id}/changes, and the hierarchy's children,
 * descendants, ancestors and roots), kept whole in the read cache under the
 * request's URL: the body as it was sent and its entity tag. Asked again
 * while the data is unchanged, a page is answered with one copy of its bytes:
 * no query, no cursor checked or signed, no envelope, no digest (a 50-code
 * page's cursors, envelope and tag cost ~25 µs of the ~100 µs a page answered
 * from a cache of its records took; bench/HISTORY.md, "answers kept whole").
 *
 * Why the URL may stand for the answer: a page's body is a function of the
 * URL (path, filters, limit and cursor, all of it checked before the handler
 * runs), of the data (the cache's version vouches for that) and of the cursor
 * secret, which is the process's for its life. It does not depend on who
 * asks: every key's plan that has the route gets the same page. A cursor that
 * does not verify never gets a 200, so it is never kept. The access checks,
 * the limits, the counting and the request log still run for every request
 * before the handler, and If-None-Match and compression are answered from the
 * tag as for any page (representations.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { jsonBody, type JsonBody } from '../domain/json-text.ts';
import type { KeptAnswers } from '../services/catalog.ts';
import type { BodyBuffers } from './body-buffers.ts';
import { entityTag } from './entity-tags.ts';
import { bodyFor, sendJsonText } from './routes/v1-types.ts';

/**
 * URLs longer than this are answered without being kept: a first page's URL
 * is ~20–60 characters, one with a cursor ~150; a key costs the cache its
 * length on top of what an entry is counted (ENTRY_OVERHEAD in byte-ring.ts).
 */
export const MAX_KEPT_URL = 512;

declare module 'fastify' {
  interface FastifyReply {
    /** The entity tag of the body this reply sends, when the route knows it already (representations.ts then does not digest it). */
    knownTag: string | null;
  }
}

/** Where a page route's answer comes from: sent from what was kept (null), or to be made under version and kept. */
export type Kept = { version: number } | null;

/** An answer that is made and not kept (no cache, or a URL too long). */
const NOT_KEPT: Kept = { version: Number.NaN };

/**
 * Sends the answer kept for this request's URL and returns null; when there is
 * none, the version to make and keep it under (taken before any read).
 */
export function sendKeptAnswer(answers: KeptAnswers | undefined, bodies: BodyBuffers, request: FastifyRequest, reply: FastifyReply): Kept {
  if (answers === undefined || request.url.length > MAX_KEPT_URL) return NOT_KEPT;
  const version = answers.open();
  const kept = answers.view(request.url);
  if (kept === undefined) return { version };
  // Copied at once into the reply's own buffer: the ring may reuse the place before the socket has sent it.
  const body = bodyFor(bodies, reply)(kept.bytes.length);
  kept.bytes.copy(body);
  reply.knownTag = kept.tag;
  sendJsonText(reply, jsonBody(body));
  return null;
}

/** Sends a page's body and keeps it, with its tag, for the same URL (when version is still current). */
export function sendAndKeep<T>(
  answers: KeptAnswers | undefined,
  kept: { version: number },
  request: FastifyRequest,
  reply: FastifyReply,
  body: JsonBody<T>,
): void {
  const tag = entityTag(body);
  if (answers !== undefined && !Number.isNaN(kept.version)) answers.keep(request.url, body, tag, kept.version);
  reply.knownTag = tag;
  sendJsonText(reply, body);
}
