/**
 * Turns anything thrown during a request into the one JSON error shape. Only
 * ApiError and Fastify's own request errors become 4xx; everything else is a
 * logged 500 whose body says nothing about internals.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../errors.ts';
import { givenBackToMonth } from './access-gate.ts';
import { ERROR_CACHE_CONTROL, errorBody } from './error-body.ts';
import { bodyParsingError } from './body-errors.ts';
import { validationError, type AjvError } from './parameter-errors.ts';
import { SEGMENT_TOO_LONG, UNDECODABLE_PATH } from './unroutable-path.ts';

export function toApiError(error: unknown, request: FastifyRequest): ApiError | null {
  if (error instanceof ApiError) return error;
  const fastifyError = error as Partial<FastifyError> & { validation?: AjvError[] };
  if (fastifyError.validation) return validationError(fastifyError.validation, request);
  return bodyParsingError(fastifyError);
}

/**
 * Errors raised while routing (a path that is not valid percent-encoding, an
 * over-long path parameter), as the answer they deserve; other errors as they are.
 */
export function routingError(error: FastifyError, url: string): unknown {
  const param = url.startsWith('/v1/codes/') ? { param: 'code_id' } : {};
  if (error.code === 'FST_ERR_BAD_URL') {
    return new ApiError('invalid_parameter', UNDECODABLE_PATH, param);
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new ApiError('invalid_parameter', SEGMENT_TOO_LONG, param);
  }
  return error;
}

/**
 * Fastify's `frameworkErrors` option: routing errors skip every hook, so the
 * Request-Id header is set here; without this option Fastify answers them with
 * a body of its own shape.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('Request-Id', request.id);
  errorHandler(routingError(error, request.url), request, reply);
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  let apiError = toApiError(error, request);
  const statusCode = (error as { statusCode?: number }).statusCode;
  if (!apiError && statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    // Malformed requests Fastify itself refuses (bad headers, body on GET, …).
    apiError = new ApiError('invalid_parameter', `The request is malformed: ${(error as Error).message}`);
  }
  if (!apiError) {
    request.log.error({ err: error }, 'unhandled error');
    apiError = new ApiError('internal_error', 'Something went wrong on our side. Retry later; quote the request_id if it persists.');
  }
  sendError(reply, apiError, request.id);
}

export function sendError(reply: FastifyReply, error: ApiError, requestId: string): void {
  reply.request.errorCode = error.code;
  if (error.headers) reply.headers(error.headers);
  reply.header('Cache-Control', ERROR_CACHE_CONTROL);
  const rateLimit = reply.getHeader('ratelimit');
  if (error.status >= 500 && reply.request.countedAt !== undefined && typeof rateLimit === 'string') {
    reply.header('RateLimit', givenBackToMonth(rateLimit));
  }
  reply.code(error.status).type('application/json; charset=utf-8').send(errorBody(error, requestId));
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before
 * any route or hook (oversized headers, malformed request lines or framing).
 * They still get the one error shape and a Request-Id, and the connection ends.
 *
 * The answers to requests read whole before the refused one, on the same
 * connection, go first: an answer is written at the end of the turn
 * (batched-response.ts) or once its read is done, and ending the connection
 * now would lose it. Node's `_httpMessage` is the answer the socket is on (its
 * clientError documentation names it); the next one is put on the socket as
 * that one finishes. An answer to the refused request itself (its body is
 * what failed) is not waited for: that request was never read whole.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (answering?.req.complete === true) {
    answering.once('close', () => setImmediate(() => clientErrorHandler(error, socket)));
    return;
  }
  const requestId = `req_${randomUUID().replaceAll('-', '')}`;
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are too large.'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request took too long to arrive.'
        : 'The request is not valid HTTP/1.1.';
  const body = errorBody(new ApiError('invalid_parameter', message), requestId);
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nRequest-Id: ${requestId}\r\n` +
      `Cache-Control: ${ERROR_CACHE_CONTROL}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
