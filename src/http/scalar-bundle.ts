/**
 * The browser bundle of the API reference's renderer (Scalar), served from this
 * host. It ships inside @scalar/fastify-api-reference as a 4.9 MB string
 * literal: importing that module costs 0.3–0.5 s and ~40 MB of memory, which
 * every start of the server (and every test process) would pay for a page few
 * requests ask for. So the module is loaded on the first request for the
 * bundle, and the bundle is taken from the plugin through the route the plugin
 * itself serves it on, in a throwaway Fastify instance that never listens.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);

interface Bundle {
  plain: Buffer;
  gzipped: Buffer;
  etag: string;
}

let loading: Promise<Bundle> | null = null;

async function loadBundle(): Promise<Bundle> {
  const { default: apiReference } = await import('@scalar/fastify-api-reference');
  const scratch = Fastify({ logger: false });
  try {
    // The plugin wants a document to serve; this one is never shown.
    await scratch.register(apiReference, {
      routePrefix: '/reference',
      configuration: { content: { openapi: '3.1.0', info: { title: 'unused', version: '0' }, paths: {} } },
    });
    const response = await scratch.inject({ method: 'GET', url: '/reference/js/scalar.js' });
    if (response.statusCode !== 200) throw new Error(`the renderer's bundle answered ${response.statusCode}`);
    const plain = response.rawPayload;
    return {
      plain,
      gzipped: await gzipAsync(plain, { level: 9 }),
      etag: `"${createHash('sha256').update(plain).digest('base64url').slice(0, 27)}"`,
    };
  } finally {
    await scratch.close();
  }
}

/** The bundle, loaded once; a failed load is retried on the next request. */
function bundle(): Promise<Bundle> {
  loading ??= loadBundle().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** GET handler: the bundle, gzipped when the browser accepts it, revalidated by ETag. */
export async function sendScalarBundle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { plain, gzipped, etag } = await bundle();
  reply.type('text/javascript; charset=utf-8').header('ETag', etag).header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('Content-Encoding', 'gzip').send(gzipped);
  return reply.send(plain);
}
