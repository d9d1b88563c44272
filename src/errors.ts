/**
 * The one error type of the service. Handlers and services throw ApiError;
 * the HTTP layer alone turns it into a status and a body.
 */
export const ERROR_STATUS = {
  api_key_in_query: 400,
  invalid_parameter: 400,
  unknown_parameter: 400,
  invalid_cursor: 400,
  invalid_body: 400,
  invalid_api_key: 401,
  endpoint_not_available_on_plan: 403,
  code_not_found: 404,
  system_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  monthly_quota_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface ApiErrorOptions {
  param?: string;
  /** Extra response headers, e.g. Allow or Retry-After. */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    // An ApiError is an answer, not a fault: no stack trace is captured (it
    // cost 11.6 µs on every 401), and none is ever shown.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.param = options.param;
    this.headers = options.headers;
  }
}

/** A failure of the command line: printed as one line, exit code 1 (2 for usage). */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/**
 * How a message names the options of a request. Services name their own
 * (effectiveDate, allowBackdated); an entry layer renders a refusal in the
 * names its user typed (the CLI: --effective-date, --allow-backdated).
 */
export type OptionNames = (option: string) => string;
export const ownNames: OptionNames = (option) => option;
/** A reason, fixed or worded around the options it names. */
export type Reason = string | ((name: OptionNames) => string);

/** An operator's or user's request that cannot be carried out, with the reason. */
export class InvalidRequest extends Error {
  private readonly reason: Reason;
  constructor(reason: Reason) {
    super(typeof reason === 'string' ? reason : reason(ownNames));
    this.name = 'InvalidRequest';
    this.reason = reason;
  }

  /** The reason with the request's options named as the caller's user knows them. */
  describe(name: OptionNames): string {
    return typeof this.reason === 'string' ? this.reason : this.reason(name);
  }
}

/**
 * The database cannot be reached or used right now (connection refused or
 * lost, shutting down, too many connections). Callers answer 503 with
 * Retry-After and try again later; it is never a bug of the request.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/**
 * An SQLite file where the settings put it (the database, its activity file,
 * the server's lock) that this process cannot open, create or write: a folder
 * it cannot write, a read-only file system, a path through a regular file, or
 * a file SQLite could open only read-only (the file, its -wal or -shm, or
 * their folder not writable for the user the process runs as, or the file
 * immutable). Its message is one line naming the file, why, and the fix; the
 * operator's to fix, never a bug.
 */
export class DatabaseFileError extends Error {
  override name = 'DatabaseFileError';
}

/** Seconds a client should wait before retrying while a store is down. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * A write gave up because another connection held the database's write lock
 * for longer than the write waits: on SQLite, an import, which holds that
 * lock until it commits (tens of seconds for a large file). Nothing of the
 * write was made. The server answers 503 with Retry-After
 * BUSY_RETRY_AFTER_SECONDS; the CLI waits as long as an import may take.
 */
export class DatabaseBusyError extends StoreUnavailableError {
  override name = 'DatabaseBusyError';
}

/** Seconds a client should wait before retrying a write refused while an import was being written. */
export const BUSY_RETRY_AFTER_SECONDS = 60;
