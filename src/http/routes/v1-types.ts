import type { JsonBody, JsonText } from '../../domain/json-text.ts';
import type { ServerResponse } from 'node:http';
import type { BodyBuffers } from '../body-buffers.ts';
import type { CursorCodec } from '../cursor.ts';
import type { BodyAllocator } from '../pagination.ts';
import type { CatalogStore } from '../../services/catalog.ts';

import type { EndpointName } from '../../domain/access.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The plan endpoint a /v1 route belongs to. */
    endpoint?: EndpointName;
    /** Set on the stand-in routes that answer 405: the methods the path allows. */
    allow?: string;
  }
}

export interface RouteDeps {
  store: CatalogStore;
  cursors: CursorCodec;
  /** Where page bodies are written, reused once their response has closed. */
  bodies: BodyBuffers;
}

/** Page bodies for this reply, taken back when it closes. */
export function bodyFor(bodies: BodyBuffers, reply: { raw: ServerResponse }): BodyAllocator {
  return (size) => bodies.acquire(size, reply.raw);
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends JSON that is already text or bytes (records are stored as their
 * response JSON): Fastify sends a string or a Buffer as it is. The reply's
 * send is typed by the route's response schema (okResponse), which admits
 * only text or bytes holding that shape.
 */
export function sendJsonText<T>(
  reply: { type(contentType: string): { send: (payload: JsonText<T> | JsonBody<T>) => unknown } },
  json: JsonText<T> | JsonBody<T>,
): void {
  reply.type(JSON_TYPE).send(json);
}
