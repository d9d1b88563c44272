import type { JsonText } from '../../domain/json-text.ts';
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
 * Sends JSON that is already text (records are stored as their response JSON):
 * Fastify sends a string as it is. The reply's send is typed by the route's
 * response schema (okResponse), which admits only text holding that shape.
 */
export function sendJsonText<T>(reply: { type(contentType: string): { send: (payload: JsonText<T>) => unknown } }, json: JsonText<T>): void {
  reply.type(JSON_TYPE).send(json);
}
