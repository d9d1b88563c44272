/** The client: its settings, its resources, and the last rate-limit state it saw. */
import type { RateLimitState } from './rate-limit.ts';
import { Changes, Codes, Core, Systems } from './resources.ts';
import { environmentVariable, inBrowser } from './runtime.ts';
import { Transport, checkedMaxRetries, checkedTimeoutMs, type FetchLike, type QueryValue } from './transport.ts';
import type { RequestOptions } from './types.ts';

export interface CodebookOptions {
  /** An API key (`svc_live_…` or `svc_test_…`). Default: the CODEBOOK_API_KEY environment variable. */
  apiKey?: string;
  /** Where the service answers. Default: CODEBOOK_BASE_URL, else http://127.0.0.1:8080. */
  baseUrl?: string;
  /** Time limit of each attempt, in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** Retries after a 429 rate_limit_exceeded, a 503 or a failed connection. Default 2; 0 turns retries off. */
  maxRetries?: number;
  /** The fetch to use. Default: the global one. */
  fetch?: FetchLike;
  /**
   * Allow the client in a web page. API keys are server-side secrets: a key in
   * a page is a key anyone who opens it can read. The API sends no CORS headers
   * either, so a page on another origin cannot read its answers.
   */
  dangerouslyAllowBrowser?: boolean;
}

export interface RawRequest extends RequestOptions {
  method?: 'GET' | 'POST';
  /** A path under the base URL, e.g. `/v1/codes`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;

function checkedBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`baseUrl ${JSON.stringify(value)} is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('baseUrl must be an http: or https: URL.');
  // The key travels in the Authorization header only: nothing in the URL may carry a secret.
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new TypeError('baseUrl must not carry credentials, a query string or a fragment: the API key goes in apiKey.');
  }
  return url.href.replace(/\/+$/, '');
}

function checkedApiKey(value: string | undefined): string {
  if (value === undefined || value === '') {
    throw new TypeError('No API key: pass apiKey to new Codebook({ apiKey }) or set the CODEBOOK_API_KEY environment variable.');
  }
  // Never echoed: a rejected key must not land in a log through this message.
  if (typeof value !== 'string' || !/^[\x21-\x7e]+$/.test(value))
    throw new TypeError('apiKey must be printable ASCII without spaces (svc_live_… or svc_test_…).');
  return value;
}

export class Codebook {
  /** Codes: get, list, search, batch, changes, children, descendants, ancestors. */
  readonly codes: Codes;
  /** The change feed: list, follow. */
  readonly changes: Changes;
  /** Systems: list, get, releases, roots. */
  readonly systems: Systems;
  readonly #transport: Transport;

  constructor(options: CodebookOptions = {}) {
    if (inBrowser() && options.dangerouslyAllowBrowser !== true) {
      throw new Error(
        'Codebook refuses to run in a web browser: API keys are server-side secrets, and a key in a page can be read by anyone who opens it. ' +
          'Call the API from your server. If you understand the risk (a key for a local tool, say), pass dangerouslyAllowBrowser: true.',
      );
    }
    const timeoutMs = checkedTimeoutMs(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const maxRetries = checkedMaxRetries(options.maxRetries ?? DEFAULT_MAX_RETRIES);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('No fetch: this runtime has no global fetch; pass one as options.fetch.');
    this.#transport = new Transport({
      apiKey: checkedApiKey(options.apiKey ?? environmentVariable('CODEBOOK_API_KEY')),
      baseUrl: checkedBaseUrl(options.baseUrl ?? environmentVariable('CODEBOOK_BASE_URL') ?? DEFAULT_BASE_URL),
      timeoutMs,
      maxRetries,
      // Called unbound: some runtimes' fetch refuses another `this`.
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    });
    const core = new Core(this.#transport);
    this.codes = new Codes(core);
    this.changes = new Changes(core);
    this.systems = new Systems(core);
  }

  get baseUrl(): string {
    return this.#transport.baseUrl;
  }

  /**
   * The RateLimit fields of the last answer that carried them (every
   * authenticated answer does), parsed; null before the first.
   */
  get rateLimit(): RateLimitState | null {
    return this.#transport.rateLimit;
  }

  /**
   * Any API request, with the key, time limit, retries and errors of the
   * typed methods: for an endpoint this version has no method for yet.
   */
  request<T = unknown>(request: RawRequest): Promise<T> {
    const { method = 'GET', path, query, body, ...options } = request;
    if (!path.startsWith('/')) throw new TypeError('path must start with /.');
    return this.#transport.request<T>({ method, path, query, body }, options);
  }

  /** What JSON.stringify shows: the settings, never the key. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.#transport.baseUrl, timeoutMs: this.#transport.timeoutMs, maxRetries: this.#transport.maxRetries };
  }

  /** What Node.js's util.inspect and console.log show: the same. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Codebook ${JSON.stringify(this.toJSON())}`;
  }
}
