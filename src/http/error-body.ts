import type { ApiError } from '../errors.ts';

/**
 * Every error answer's Cache-Control: an error is about one request and one
 * key, and a shared cache may otherwise keep a 404 (RFC 9111 lets it guess a
 * lifetime) and hand it to the next client after the code is imported.
 */
export const ERROR_CACHE_CONTROL = 'no-store';

/** The one error body shape: {"error": {"code", "message", "param"?, "request_id"}}. */
export function errorBody(error: ApiError, requestId: string): string {
  return JSON.stringify({
    error: {
      code: error.code,
      message: error.message,
      ...(error.param !== undefined ? { param: error.param } : {}),
      request_id: requestId,
    },
  });
}
