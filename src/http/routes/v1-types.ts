import type { CursorCodec } from '../cursor.ts';
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
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Sends JSON that is already text (records are stored as their response JSON).
 * The route's response schema documents the shape; Fastify sends strings as-is.
 */
export function sendJsonText(reply: { type(contentType: string): { send(payload: never): unknown } }, json: string): void {
  reply.type(JSON_TYPE).send(json as never);
}
