/** What the request log keeps of a finished /v1 request of a known key. */
import 'fastify';
import type { Principal } from '../domain/access.ts';
import type { ErrorCode } from '../errors.ts';
import type { PendingRequest } from '../services/access/request-log.ts';
import type { AnsweredRequest } from './v1.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The error code the request was answered with, once it is sent. */
    errorCode?: ErrorCode;
    /** The key's display prefix, set once the key is authenticated. */
    keyPrefix?: string;
  }
}

export function requestLogEntry(request: AnsweredRequest, principal: Principal, status: number, atMs: number, durationMs: number): PendingRequest {
  return {
    orgId: principal.org.id,
    keyId: principal.keyId,
    keyPrefix: request.keyPrefix ?? '',
    atMs,
    method: request.method,
    url: request.originalUrl,
    status,
    errorCode: request.errorCode ?? null,
    durationMs: Math.round(durationMs * 1000) / 1000,
    requestId: request.id,
  };
}
