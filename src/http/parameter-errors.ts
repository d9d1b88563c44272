/**
 * What a client sent wrong in a query string, and what to send instead: the
 * messages of unknown_parameter and invalid_parameter. Each names the one
 * parameter at fault (`param`) and says what the endpoint accepts.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { LIMIT_RULE } from './pagination.ts';

export interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * Names clients reach for when they expect offset or page-number paging. Only
 * these get the "cursors only" explanation; any other unknown name gets the
 * list of parameters the endpoint accepts.
 */
const OFFSET_PAGING = new Set([
  'offset',
  'skip',
  'start',
  'start_index',
  'startindex',
  '$skip',
  '$top',
  'top',
  'page',
  'page_size',
  'pagesize',
  'page_number',
  'pagenumber',
  'page_no',
  'per_page',
  'perpage',
]);

const isOffsetPaging = (name: string) => OFFSET_PAGING.has(name.toLowerCase().replaceAll('-', '_'));

/** A client's text inside a message: quoted, and cut short so a huge value cannot flood the body. */
function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
}

const DATE_RULE = 'must be a calendar date written YYYY-MM-DD, such as 2024-06-25';

/** invalid_parameter for a date that is none (as_of, effective_from…; in a query or a body alike): the rule, and the value as sent. */
export function invalidDate(param: string, sent: unknown): ApiError {
  return new ApiError('invalid_parameter', `The ${param} parameter ${DATE_RULE}; got ${quoted(sent)}.`, { param });
}

/** `GET /v1/codes/{code_id}/changes`: the endpoint as the reference names it, from its method and route. */
export function endpointLabel(method: string, url: string): string {
  return `${method} ${url.replace(/:(\w+)/g, '{$1}')}`;
}

function requestEndpoint(request: FastifyRequest): string {
  return endpointLabel(request.method, request.routeOptions.url ?? request.url.split('?')[0]!);
}

function acceptedParameters(request: FastifyRequest): string[] {
  const schema = request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(schema?.properties ?? {});
}

export function unknownParameter(name: string, request: FastifyRequest): ApiError {
  return new ApiError('unknown_parameter', unknownParameterMessage(name, requestEndpoint(request), acceptedParameters(request)), { param: name });
}

/** The message of unknown_parameter, for an endpoint (as endpointLabel names it) that accepts these parameters. */
export function unknownParameterMessage(name: string, endpoint: string, accepted: string[]): string {
  const parts = [`Unknown query parameter ${quoted(name)}.`];
  if (isOffsetPaging(name)) {
    parts.push(
      accepted.includes('cursor')
        ? "Collections page with cursors only, never by offset or page number: send the previous page's pagination.next_cursor as cursor."
        : `${endpoint} does not page.`,
    );
  }
  const sameButCase = accepted.find((p) => p !== name && p.toLowerCase() === name.toLowerCase());
  if (sameButCase) parts.push(`Names are case-sensitive: did you mean "${sameButCase}"?`);
  parts.push(accepted.length === 0 ? `${endpoint} takes no query parameters.` : `${endpoint} accepts: ${accepted.join(', ')}.`);
  return parts.join(' ');
}

/** The one ApiError for Fastify's schema validation errors of a request. */
export function validationError(errors: AjvError[], request: FastifyRequest): ApiError {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) return unknownParameter(String(unknown.params.additionalProperty), request);
  const first = errors[0];
  const param = first?.instancePath.replace(/^\//, '').split('/')[0] || undefined;
  if (param === undefined) return new ApiError('invalid_parameter', `The request ${first?.message ?? 'is invalid'}.`);
  if (param === 'limit') return new ApiError('invalid_parameter', LIMIT_RULE, { param });
  const value = (request.query as Record<string, unknown> | undefined)?.[param] ?? (request.params as Record<string, unknown> | undefined)?.[param];
  if (first?.keyword === 'format' && first.params.format === 'date') return invalidDate(param, value);
  const sent = quoted(value);
  let rule = first?.message ?? 'is invalid';
  if (first?.keyword === 'enum') rule = `must be one of: ${(first.params.allowedValues as string[]).join(', ')}`;
  else if (first?.keyword === 'pattern' && param === 'system') {
    rule = 'must be a system name: lower-case letters, digits, ".", "_" or "-", starting with a letter or digit, at most 64 characters';
  }
  return new ApiError('invalid_parameter', `The ${param} parameter ${rule}; got ${sent}.`, { param });
}

/**
 * preValidation hook of every route with query parameters: each parameter the
 * route takes has one value, and it is well encoded.
 * - A parameter sent twice (`?limit=5&limit=6`) arrives as an array, which
 *   schema validation would report as a value of the wrong type.
 * - A value whose percent-encoding is broken (a `%` without two hex digits, or
 *   escapes that are not UTF-8) is kept undecoded by Fastify's query parser,
 *   its good escapes too, and would be read as literal text (a search for
 *   `sao%20tome%E2` found nothing, with no error).
 * Callback style: the single-code route answers without a promise, and so does
 * this hook (there is nothing to wait for).
 */
export function checkParameterValues(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
    if (Array.isArray(value) && acceptedParameters(request).includes(name)) {
      return done(new ApiError('invalid_parameter', `The ${name} parameter was sent ${value.length} times; send it once.`, { param: name }));
    }
  }
  const url = request.raw.url!;
  const query = url.indexOf('?');
  if (query !== -1 && url.includes('%', query)) {
    const name = misencodedParameter(url.slice(query + 1), acceptedParameters(request));
    if (name !== null) {
      return done(
        new ApiError(
          'invalid_parameter',
          `The ${name} parameter is not valid percent-encoding: each % must start an escape of two hex digits, and the escapes must spell UTF-8 text.`,
          { param: name },
        ),
      );
    }
  }
  done();
}

const decoded = (text: string): string | null => {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
};

/** The first accepted parameter of a raw query string whose value does not decode. */
function misencodedParameter(query: string, accepted: string[]): string | null {
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || !pair.includes('%', eq)) continue;
    const name = decoded(pair.slice(0, eq));
    if (name !== null && accepted.includes(name) && decoded(pair.slice(eq + 1)) === null) return name;
  }
  return null;
}
