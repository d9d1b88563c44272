import type { ApiError } from '../errors.ts';

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
