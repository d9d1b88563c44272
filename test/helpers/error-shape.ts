/**
 * The documented error answers, checked the same way whatever carried them
 * (inject() or a raw socket): JSON errors in the one shape with a code from the
 * closed set at its documented status and kept by no cache, dashboard errors
 * as HTML pages, and a Request-Id on both.
 */
import assert from 'node:assert/strict';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors.ts';

export interface AnyResponse {
  status: number;
  header(name: string): string | undefined;
  body: string;
}

export const REQUEST_ID = /^req_[0-9a-f]{32}$/;

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  param?: string;
  request_id: string;
}

/** Asserts {"error": {"code", "message", "param"?, "request_id"}} with request_id = Request-Id and the code's status. */
export function assertJsonError(res: AnyResponse, what: string): ErrorBody {
  const requestId = res.header('request-id');
  assert.match(requestId ?? '', REQUEST_ID, `${what}: Request-Id`);
  assert.match(res.header('content-type') ?? '', /^application\/json; charset=utf-8$/, `${what}: Content-Type`);
  assert.equal(res.header('cache-control'), 'no-store', `${what}: Cache-Control`);
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    assert.fail(`${what}: not JSON: ${res.body.slice(0, 300)}`);
  }
  assert.deepEqual(Object.keys(body as object), ['error'], `${what}: ${res.body.slice(0, 300)}`);
  const error = (body as { error: Record<string, unknown> }).error;
  const keys = Object.keys(error).sort();
  assert.ok(
    JSON.stringify(keys) === '["code","message","request_id"]' || JSON.stringify(keys) === '["code","message","param","request_id"]',
    `${what}: error keys ${keys.join(',')}`,
  );
  assert.ok(Object.hasOwn(ERROR_STATUS, error.code as string), `${what}: code ${String(error.code)} is not in the closed set`);
  assert.equal(res.status, ERROR_STATUS[error.code as ErrorCode], `${what}: ${String(error.code)} answered with ${res.status}`);
  if (res.status === 401) assert.equal(res.header('www-authenticate'), 'Bearer realm="codebook"', `${what}: WWW-Authenticate`);
  assert.equal(typeof error.message, 'string', what);
  assert.ok((error.message as string).length > 0, `${what}: empty message`);
  if (error.param !== undefined) assert.equal(typeof error.param, 'string', what);
  assert.equal(error.request_id, requestId, `${what}: request_id is not the Request-Id header`);
  return error as unknown as ErrorBody;
}

/** Asserts a dashboard error page: HTML, the protective headers' core, a Request-Id. */
export function assertHtmlErrorPage(res: AnyResponse, what: string): void {
  assert.match(res.header('request-id') ?? '', REQUEST_ID, `${what}: Request-Id`);
  assert.match(res.header('content-type') ?? '', /^text\/html; charset=utf-8$/, `${what}: Content-Type`);
  assert.match(res.header('content-security-policy') ?? '', /default-src 'none'/, `${what}: Content-Security-Policy`);
  assert.match(res.body, /^<!doctype html>/, `${what}: ${res.body.slice(0, 200)}`);
}
