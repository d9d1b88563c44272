/**
 * How /v1 answers are represented on the wire: an entity tag on every 200 to a
 * GET, 304 Not Modified for a matching If-None-Match, and gzip or brotli for a
 * client that accepts them (a POST's answer too). Runs as the last step before sending (onSend),
 * after access control and the handler: a 304 has passed every check a 200
 * passes and is counted like one; an error is never tagged or compressed.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chooseCoding, type ContentCoding } from './accept-encoding.ts';
import type { CompressedCache } from './compressed-cache.ts';
import { entityTag, noneMatchFails, weakened } from './entity-tags.ts';
import { utf8View } from './utf8-scratch.ts';
import { representationDocs } from './representation-docs.ts';

/**
 * Bodies shorter than this (characters of JSON text: bytes, for ASCII) are sent
 * as they are: compressing them saves less than it costs.
 */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Levels cheap on CPU (measured in bench/README.md): brotli 1 is the cheapest
 * of every brotli and gzip level (a 20 KB page ~50 µs, 6.8× smaller); gzip 3
 * costs what gzip 1 does and is a little smaller. Higher levels cost 2–40×
 * more for 10–25 % fewer bytes. Synchronous one-shot calls: on the thread
 * pool the same work cost 2.5–4.5× more CPU for bodies of this size.
 */
export const BROTLI_QUALITY = 1;
export const GZIP_LEVEL = 3;

/** Every answer that carries a tag is for its own caller, and is revalidated before each reuse, so each use is a counted request. */
export const CACHE_CONTROL = 'private, no-cache';

export function compress(body: Buffer, coding: ContentCoding): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: GZIP_LEVEL });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

function addVary(reply: FastifyReply, field: string): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('Vary', field);
  else if (!String(vary).toLowerCase().includes(field.toLowerCase())) reply.header('Vary', `${String(vary)}, ${field}`);
}

export interface RepresentationOptions {
  cache: CompressedCache;
}

/**
 * Registers the documentation (every GET with a 200 documents ETag, compression and 304; a POST's 200, compression)
 * and the onSend step in a /v1 scope.
 */
export function registerRepresentations(app: FastifyInstance, { cache }: RepresentationOptions): void {
  app.addHook('onRoute', representationDocs);
  // Set by the page routes, which know their body's tag (kept-answers.ts).
  app.decorateReply('knownTag', null);

  // Callback style: it never waits for anything, so it need not cost a promise and a microtask.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    done(null, represent(cache, request, reply, payload));
  });
}

/** The payload to send for this answer: as it is, or compressed, or none (304); sets the headers that go with it. */
function represent(cache: CompressedCache, request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const method = request.method;
  // Routes send their JSON as text (a record) or bytes (a page); anything else (errors included) is left alone.
  const text = typeof payload === 'string';
  if (reply.statusCode !== 200 || !(text || Buffer.isBuffer(payload))) return payload;
  if (method === 'POST') return compressedAnswer(request, reply, payload);
  if (method !== 'GET' && method !== 'HEAD') return payload;
  // A larger body's bytes: a page's own, or a text's in the shared scratch buffer (utf8-scratch.ts), digested and
  // compressed here, never sent. Nothing from here to the compression may await: another answer would overwrite the buffer.
  const bytes = payload.length < COMPRESSION_THRESHOLD ? undefined : text ? utf8View(payload) : payload;
  // A page route knows its body's tag already (kept-answers.ts), whatever the body's size.
  const tag = reply.knownTag ?? entityTag(bytes ?? payload);
  const compressible = bytes !== undefined;
  // HEAD sends no body, so nothing to compress: its headers describe the identity body.
  const coding = compressible && method === 'GET' ? chooseCoding(request.headers['accept-encoding']) : null;
  // A compressed form is another representation of the same body: the same tag, weak (as RFC 9110 §8.8.1 allows).
  const sentTag = coding === null ? tag : weakened(tag);
  reply.header('ETag', sentTag);
  reply.header('Cache-Control', CACHE_CONTROL);
  if (compressible) addVary(reply, 'Accept-Encoding');
  if (noneMatchFails(request.headers['if-none-match'], sentTag)) {
    reply.code(304);
    reply.removeHeader('content-type');
    // HEAD: Fastify's own HEAD step turns the text into its Content-Length (the one a 200 would carry) and sends nothing.
    return method === 'HEAD' ? payload : null;
  }
  if (coding === null || bytes === undefined) return payload;
  let compressed = cache.get(tag, coding);
  if (compressed === undefined) {
    compressed = compress(bytes, coding);
    cache.set(tag, coding, compressed);
  }
  reply.header('Content-Encoding', coding);
  return compressed;
}

/**
 * A POST answer (a batch of records, up to ~100 KB): compressed for a client
 * that accepts a coding, like a GET's, but with no tag (a POST is not asked
 * for again by its tag) and not kept in the compressed cache, whose forms
 * are found by the tag of a body asked for again.
 */
function compressedAnswer(request: FastifyRequest, reply: FastifyReply, payload: string | Buffer): string | Buffer {
  if (payload.length < COMPRESSION_THRESHOLD) return payload;
  addVary(reply, 'Accept-Encoding');
  const coding = chooseCoding(request.headers['accept-encoding']);
  if (coding === null) return payload;
  reply.header('Content-Encoding', coding);
  return compress(typeof payload === 'string' ? utf8View(payload) : payload, coding);
}
