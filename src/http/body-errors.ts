/**
 * Request bodies (POST /v1/codes/batch): what Fastify's body parsing refuses,
 * as the error codes of the design, and the one media type accepted.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';

export const BODY_LIMIT = 64 * 1024;

/**
 * Fastify's content-type parser errors, or null for any other error. Only
 * these codes are the request's body at fault: a SyntaxError thrown anywhere
 * else (stored JSON that no longer parses, say) is the service's failure, a
 * 500, never the client's invalid_body.
 */
export function bodyParsingError(error: { code?: string }): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', `The request body is larger than ${BODY_LIMIT / 1024} KiB. Send at most 200 ids per request.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('invalid_body', 'The request body is not valid JSON. Send a JSON object such as {"ids": ["iso4217:EUR"]}.');
    default:
      return null;
  }
}

function unsupportedMediaType(): ApiError {
  return new ApiError('unsupported_media_type', 'Send the body as JSON, with the header Content-Type: application/json.');
}

/** preValidation hook: Fastify also parses text/plain, which this API does not take. */
export async function requireJsonBody(request: FastifyRequest): Promise<void> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw unsupportedMediaType();
}
