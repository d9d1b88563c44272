/**
 * The one way the client talks to the API: builds the URL, sends the key in
 * the Authorization header, bounds every attempt in time, turns answers into
 * values or errors, keeps the last rate-limit state, and retries what may
 * succeed later (429 rate_limit_exceeded after Retry-After; 503, failures to
 * connect and connections dropped before the answer was whole with
 * exponential backoff and jitter). Nothing else is retried, and nothing whose
 * Retry-After is longer than MAX_RETRY_WAIT_MS: that error is thrown at once,
 * with its retryAfter, for the caller to decide.
 */
import { CodebookConnectionError, CodebookTimeoutError, RateLimitExceededError, ServiceUnavailableError, errorFromAnswer } from './errors.ts';
import { parseHttpDate } from './http-date.ts';
import { parseRateLimit, type RateLimitState } from './rate-limit.ts';
import { abortReason, attemptSignal, sleep } from './runtime.ts';
import type { RequestOptions } from './types.ts';

/** The subset of fetch the client uses: pass any fetch (undici's, a proxy-aware one, a recording one). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type QueryValue = string | number | boolean | undefined | null;

export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path under the base URL, starting with /v1/…, with path parameters already encoded. */
  path: string;
  query?: Record<string, QueryValue> | undefined;
  /** Sent as JSON. */
  body?: unknown;
}

export interface TransportSettings {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: FetchLike;
}

/** A time limit, the client's or a call's: a positive number of milliseconds. */
export function checkedTimeoutMs(value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError('timeoutMs must be a positive number of milliseconds.');
  return value;
}

/** A number of retries, the client's or a call's: an integer of at least 0 (Infinity is not one). */
export function checkedMaxRetries(value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new TypeError('maxRetries must be an integer of at least 0.');
  return value;
}

/** What a load balancer or proxy answers for a service that is down or slow: worth another try. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** First wait after a 503 without Retry-After or a failed connection; doubles per retry, up to the cap. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

/** Equal jitter: half the exponential step for sure, the other half at random, so clients spread out. */
export function backoffMs(retry: number): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  return step / 2 + Math.random() * (step / 2);
}

/**
 * The longest Retry-After a call waits out before retrying: the service asks
 * for at most 60 s (the end of the minute; an import holding the database).
 * A longer one (a proxy's, a month's) is not retried.
 */
export const MAX_RETRY_WAIT_MS = 60_000;

/** How long to wait before retrying after this error, or null when it must not be retried. */
export function retryDelayMs(error: unknown, retry: number): number | null {
  if (error instanceof RateLimitExceededError || error instanceof ServiceUnavailableError) {
    if (error.retryAfter === undefined) return backoffMs(retry);
    const asked = error.retryAfter * 1000;
    return asked <= MAX_RETRY_WAIT_MS ? asked : null;
  }
  if (error instanceof CodebookConnectionError && error.retryable) return backoffMs(retry);
  return null;
}

/**
 * Retry-After in seconds: a number of seconds (what the service sends), or an
 * HTTP date (what a proxy may send), counted from the answer's Date when it
 * has one (the two come from the same clock) and from this clock otherwise.
 */
function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = parseHttpDate(value);
  if (at === undefined) return undefined;
  const date = headers.get('date');
  const now = (date !== null ? parseHttpDate(date.trim()) : undefined) ?? Date.now();
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function isErrorBody(body: unknown): body is { error: { code: string; message: string; param?: string; request_id?: string } } {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = body.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

export class Transport {
  readonly #apiKey: string;
  readonly #fetch: FetchLike;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  // The last answer's fields, parsed only when someone asks.
  #rateLimit: { value: string; policy: string | null; at: number } | null = null;

  constructor(settings: TransportSettings) {
    this.#apiKey = settings.apiKey;
    this.#fetch = settings.fetch;
    this.baseUrl = settings.baseUrl;
    this.timeoutMs = settings.timeoutMs;
    this.maxRetries = settings.maxRetries;
  }

  get rateLimit(): RateLimitState | null {
    const last = this.#rateLimit;
    return last === null ? null : parseRateLimit(last.value, last.policy, last.at);
  }

  url(path: string, query: Record<string, QueryValue> | undefined): string {
    let url = this.baseUrl + path;
    if (query !== undefined) {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) search.append(name, String(value));
      const text = search.toString();
      if (text !== '') url += `?${text}`;
    }
    return url;
  }

  /** Sends the request, retrying as the class comment says; resolves with the parsed JSON of a 2xx answer. */
  async request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<T> {
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { authorization: `Bearer ${this.#apiKey}`, accept: 'application/json' };
    let body: string | undefined;
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.body);
    }
    const maxRetries = checkedMaxRetries(options.maxRetries ?? this.maxRetries);
    const timeoutMs = checkedTimeoutMs(options.timeoutMs ?? this.timeoutMs);
    const caller = options.signal;
    for (let retry = 0; ; retry++) {
      if (caller?.aborted) throw abortReason(caller);
      try {
        return await this.#attempt<T>(url, { method: spec.method, headers, body }, timeoutMs, caller);
      } catch (error) {
        const delay = retry < maxRetries ? retryDelayMs(error, retry) : null;
        if (delay === null) throw error;
        if (!(await sleep(delay, caller))) throw abortReason(caller!);
      }
    }
  }

  async #attempt<T>(url: string, init: RequestInit, timeoutMs: number, caller: AbortSignal | undefined): Promise<T> {
    const what = `${init.method} ${url.slice(this.baseUrl.length)}`;
    const attempt = attemptSignal(timeoutMs, caller);
    try {
      let res: Response;
      try {
        res = await this.#fetch(url, { ...init, signal: attempt.signal });
      } catch (error) {
        throw this.#failure(error, attempt, caller, timeoutMs, `Could not reach ${this.baseUrl}`);
      }
      const rateLimit = res.headers.get('ratelimit');
      if (rateLimit !== null) this.#rateLimit = { value: rateLimit, policy: res.headers.get('ratelimit-policy'), at: Date.now() };
      const requestId = res.headers.get('request-id') ?? undefined;
      // The body is read whole before it is parsed: a read that fails is the
      // connection's fault (dropped partway, the time limit, the caller's
      // signal), and a retry may get it whole; a whole body that does not
      // parse is not the API's answer, and a retry would get it again.
      let text: string;
      try {
        text = await res.text();
      } catch (error) {
        const answer = { status: res.status, requestId };
        throw this.#failure(error, attempt, caller, timeoutMs, `The connection was dropped while the answer to ${what} (${res.status}) was read`, answer);
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        const type = res.headers.get('content-type') ?? 'no content type';
        throw new CodebookConnectionError(
          `${what} was answered ${res.status} with something other than JSON (${type}): is ${this.baseUrl} a Codebook service?`,
          {
            status: res.status,
            requestId,
            retryable: GATEWAY_STATUSES.has(res.status),
          },
        );
      }
      if (res.ok) return body as T;
      if (!isErrorBody(body)) {
        throw new CodebookConnectionError(`${what} was answered ${res.status} with JSON that is not a Codebook error.`, {
          status: res.status,
          requestId,
          retryable: GATEWAY_STATUSES.has(res.status),
        });
      }
      const { code, message, param, request_id } = body.error;
      throw errorFromAnswer({ status: res.status, code, message, param, requestId: request_id ?? requestId, retryAfter: retryAfterSeconds(res.headers) });
    } finally {
      attempt.release();
    }
  }

  /**
   * A fetch or a read of the body that threw: the caller's abort as it is, a
   * timeout, or a connection failure, retryable (the key never in the
   * message). `answer` is the status and request id when the headers came.
   */
  #failure(
    error: unknown,
    attempt: { timedOut(): boolean },
    caller: AbortSignal | undefined,
    timeoutMs: number,
    what: string,
    answer?: { status: number; requestId: string | undefined },
  ): unknown {
    if (caller?.aborted) return abortReason(caller);
    if (attempt.timedOut()) return new CodebookTimeoutError(timeoutMs);
    const detail = error instanceof Error ? this.#redact(`${error.message}${causeMessage(error)}`) : 'unknown failure';
    return new CodebookConnectionError(`${what}: ${detail}`, {
      ...answer,
      retryable: true,
      cause: this.#redact(String(error)) === String(error) ? error : undefined,
    });
  }

  #redact(text: string): string {
    return text.split(this.#apiKey).join('[key]');
  }
}

function causeMessage(error: Error): string {
  const cause = error.cause;
  return cause instanceof Error && cause.message !== '' ? ` (${cause.message})` : '';
}
