/**
 * What the client throws. Every error the API answers is a CodebookError with
 * the answer's status, code, message, param and request id; each documented
 * code has a subclass of its own, listed in ERROR_CLASSES, so that
 * `e instanceof CodeNotFoundError` works. A failure to get a JSON answer at all
 * is a CodebookConnectionError.
 */
import type { DocumentedErrorCode } from './types.ts';

export interface CodebookErrorInit {
  status: number;
  code: string;
  message: string;
  param?: string | undefined;
  requestId?: string | undefined;
  retryAfter?: number | undefined;
  cause?: unknown;
}

export class CodebookError extends Error {
  /** The HTTP status of the answer (0 when there was none). */
  readonly status: number;
  /** The API's stable error code, e.g. `code_not_found`. */
  readonly code: string;
  /** The parameter at fault, when there is one. */
  readonly param: string | undefined;
  /** The answer's Request-Id: quote it when asking for help. */
  readonly requestId: string | undefined;
  /** Seconds the answer asked to wait before trying again (429, 503), from Retry-After in seconds or as an HTTP date. */
  readonly retryAfter: number | undefined;

  constructor(init: CodebookErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = errorName(init.code);
    this.status = init.status;
    this.code = init.code;
    this.param = init.param;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

/** `code_not_found` → `CodeNotFoundError`; a code that already says error keeps one `Error`. */
function errorName(code: string): string {
  if (!(code in ERROR_CLASSES)) return 'CodebookError';
  const pascal = code.replace(/(^|_)([a-z])/g, (_, __: string, letter: string) => letter.toUpperCase());
  return pascal.endsWith('Error') ? pascal : `${pascal}Error`;
}

// Each class declares its literal code: classes of the same shape would be one
// type to TypeScript, and narrowing with instanceof would then go wrong.
export class ApiKeyInQueryError extends CodebookError {
  declare readonly code: 'api_key_in_query';
}
export class InvalidParameterError extends CodebookError {
  declare readonly code: 'invalid_parameter';
}
export class UnknownParameterError extends CodebookError {
  declare readonly code: 'unknown_parameter';
}
export class InvalidCursorError extends CodebookError {
  declare readonly code: 'invalid_cursor';
}
export class InvalidBodyError extends CodebookError {
  declare readonly code: 'invalid_body';
}
export class InvalidApiKeyError extends CodebookError {
  declare readonly code: 'invalid_api_key';
}
export class EndpointNotAvailableOnPlanError extends CodebookError {
  declare readonly code: 'endpoint_not_available_on_plan';
}
export class CodeNotFoundError extends CodebookError {
  declare readonly code: 'code_not_found';
}
export class SystemNotFoundError extends CodebookError {
  declare readonly code: 'system_not_found';
}
export class RouteNotFoundError extends CodebookError {
  declare readonly code: 'route_not_found';
}
export class MethodNotAllowedError extends CodebookError {
  declare readonly code: 'method_not_allowed';
}
export class PayloadTooLargeError extends CodebookError {
  declare readonly code: 'payload_too_large';
}
export class UnsupportedMediaTypeError extends CodebookError {
  declare readonly code: 'unsupported_media_type';
}
/** 429: too many requests this minute. Retried by default after `retryAfter` seconds. */
export class RateLimitExceededError extends CodebookError {
  declare readonly code: 'rate_limit_exceeded';
}
/** 429: the monthly allowance is used up. Never retried: it comes back next month (`retryAfter` says when). */
export class MonthlyQuotaExceededError extends CodebookError {
  declare readonly code: 'monthly_quota_exceeded';
}
export class InternalError extends CodebookError {
  declare readonly code: 'internal_error';
}
/** 503: the service cannot answer right now. Retried by default. */
export class ServiceUnavailableError extends CodebookError {
  declare readonly code: 'service_unavailable';
}

/** Every error code the API documents, and its class: the one place that lists them. */
export const ERROR_CLASSES = {
  api_key_in_query: ApiKeyInQueryError,
  invalid_parameter: InvalidParameterError,
  unknown_parameter: UnknownParameterError,
  invalid_cursor: InvalidCursorError,
  invalid_body: InvalidBodyError,
  invalid_api_key: InvalidApiKeyError,
  endpoint_not_available_on_plan: EndpointNotAvailableOnPlanError,
  code_not_found: CodeNotFoundError,
  system_not_found: SystemNotFoundError,
  route_not_found: RouteNotFoundError,
  method_not_allowed: MethodNotAllowedError,
  payload_too_large: PayloadTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  rate_limit_exceeded: RateLimitExceededError,
  monthly_quota_exceeded: MonthlyQuotaExceededError,
  internal_error: InternalError,
  service_unavailable: ServiceUnavailableError,
} as const;

export type ErrorCode = keyof typeof ERROR_CLASSES;

/** Fails to compile when the service documents an error code this table lacks (after npm run generate). */
type Covered<Code extends ErrorCode> = Code;
export type DocumentedErrorCodesCovered = Covered<DocumentedErrorCode>;

/**
 * No JSON answer: the service could not be reached, the connection failed or
 * timed out, or something in between (a proxy, a wrong baseUrl) answered with
 * something else than the API's JSON. `status` is the HTTP status when there
 * was an answer, 0 otherwise.
 */
export class CodebookConnectionError extends CodebookError {
  /** Whether a retry may succeed: no answer, or a gateway's 502/503/504. */
  readonly retryable: boolean;
  constructor(message: string, options: { status?: number; requestId?: string | undefined; retryable: boolean; cause?: unknown; code?: string }) {
    super({ status: options.status ?? 0, code: options.code ?? 'connection_error', message, requestId: options.requestId, cause: options.cause });
    this.name = 'CodebookConnectionError';
    this.retryable = options.retryable;
  }
}

/** An attempt took longer than `timeoutMs`. */
export class CodebookTimeoutError extends CodebookConnectionError {
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms.`, { retryable: true, code: 'timeout' });
    this.name = 'CodebookTimeoutError';
  }
}

/** The error for an API error answer: the code's class, or CodebookError for a code this version does not know. */
export function errorFromAnswer(init: CodebookErrorInit): CodebookError {
  const known = Object.hasOwn(ERROR_CLASSES, init.code) ? ERROR_CLASSES[init.code as ErrorCode] : CodebookError;
  return new known(init);
}
