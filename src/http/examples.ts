/**
 * Example responses for /openapi.json and the reference at /docs: records and
 * pages from the demo data set, and one error body per error code as the
 * service words it. A test validates each against its response schema; the
 * 400 and 404 of each operation hold only the codes it can answer, in the
 * words it answers them with.
 */
import { DEFAULT_PLANS, type EndpointName } from '../domain/access.ts';
import type { ErrorCode } from '../errors.ts';
import { LIMIT_RULE } from './pagination.ts';
import { endpointLabel, unknownParameterMessage } from './parameter-errors.ts';
import { UNDECODABLE_PATH } from './unroutable-path.ts';

const euro = {
  object: 'code',
  id: 'iso4217:EUR',
  system: 'iso4217',
  code: 'EUR',
  display: 'Euro',
  definition: 'Single currency of the euro area, also used by several other states and territories.',
  status: 'active',
  parents: [],
  attributes: { entities: 'Åland Islands; Andorra; Austria; Belgium; Bulgaria; Croatia; …', minor_unit: '2', numeric_code: '978' },
  release: '2026-01',
  effective_from: '2022-07-01',
  updated_at: '2026-01-02T09:14:31.205Z',
};

const codeOf = (code: string, display: string, definition: string, entities: string, numeric: string) => ({
  object: 'code',
  id: `iso4217:${code}`,
  system: 'iso4217',
  code,
  display,
  definition,
  status: 'active',
  parents: [],
  attributes: { entities, minor_unit: '2', numeric_code: numeric },
  release: '2022-07',
  effective_from: '2022-07-01',
  updated_at: '2026-01-02T09:14:30.923Z',
});

const kunaAdded = {
  object: 'change',
  id: 62,
  code_id: 'iso4217:HRK',
  type: 'added',
  effective_date: '2022-07-01',
  release: '2022-07',
  fields: [],
  before: null,
  after: {
    display: 'Kuna',
    definition: 'Currency of Croatia.',
    status: 'active',
    parents: [],
    attributes: { entities: 'Croatia', minor_unit: '2', numeric_code: '191' },
  },
  recorded_at: '2026-01-02T09:14:30.923Z',
};

const retired = (id: number, code: string, date: string, before: string) => ({
  object: 'change',
  id,
  code_id: `iso4217:${code}`,
  type: 'retired',
  effective_date: date,
  release: date.slice(0, 7),
  fields: ['status'],
  before: { status: before },
  after: { status: 'retired' },
  recorded_at: '2026-01-02T09:14:31.205Z',
});

export const EXAMPLES = {
  code: euro,
  codesPage: {
    data: [
      codeOf('AED', 'UAE Dirham', 'Currency of the United Arab Emirates.', 'United Arab Emirates', '784'),
      codeOf('AFN', 'Afghani', 'Currency of Afghanistan.', 'Afghanistan', '971'),
    ],
    pagination: { has_more: true, next_cursor: 'WzEsImNvZGVzIiwiIiwiaXNvNDIxNzpBRk4iXQ.5JBNg1xHhn0fdBlHtsQaiA' },
  },
  searchPage: {
    data: [
      {
        ...codeOf('STN', 'Dobra', 'Currency of São Tomé and Príncipe.', 'Sao Tome and Principe', '930'),
        release: '2026-01',
        effective_from: '2018-01-01',
      },
    ],
    pagination: { has_more: false },
  },
  system: {
    object: 'system',
    id: 'iso4217',
    name: 'ISO 4217 currency codes',
    description: 'Codes for the representation of currencies and funds.',
    url: 'https://www.iso.org/iso-4217-currency-codes.html',
    publisher: 'ISO',
    license: null,
    counts: { active: 177, deprecated: 1, retired: 6 },
    latest_release: '2026-01',
    latest_effective_date: '2026-01-01',
    updated_at: '2026-01-02T09:14:31.205Z',
  },
  systemsPage: {
    data: [] as unknown[],
    pagination: { has_more: false },
  },
  releasesPage: {
    data: [
      {
        object: 'release',
        system: 'iso4217',
        id: '2026-01',
        effective_date: '2026-01-01',
        mode: 'snapshot',
        imported_at: '2026-01-02T09:14:31.205Z',
        counts: { added: 0, revised: 0, retired: 2, reactivated: 0 },
        first_change_id: 193,
        last_change_id: 194,
      },
    ],
    pagination: { has_more: false },
  },
  changesPage: {
    data: [retired(193, 'ANG', '2026-01-01', 'deprecated'), retired(194, 'BGN', '2026-01-01', 'active')],
    pagination: { has_more: true, next_cursor: 'WzEsImNoYW5nZXMiLCJlZmZlY3RpdmVfZnJvbT0yMDI2LTAxLTAxIiwiMjAyNi0wMS0wMSIsMTk0XQ.1VB7N1C8MaM31jartjhMGg' },
  },
  codeChangesPage: {
    data: [kunaAdded, { ...retired(183, 'HRK', '2023-01-01', 'active'), recorded_at: '2026-01-02T09:14:30.958Z' }],
    pagination: { has_more: false },
  },
};

interface ErrorExample {
  summary: string;
  value: { error: { code: ErrorCode; message: string; param?: string; request_id: string } };
}

const error = (code: ErrorCode, summary: string, message: string, param?: string): [string, ErrorExample] => [
  code,
  { summary, value: { error: { code, message, ...(param ? { param } : {}), request_id: 'req_9bf2773cfa844df4857447ca197256b5' } } },
];

/** The example of a plan an operator set up without the endpoint, for an endpoint every seeded plan includes. */
const OPERATOR_PLAN = 'changes-feed';

/** The 403 of an endpoint, as the gate words it: a plan without it, and every plan with it by name. */
function planRefusal(endpoint: EndpointName): [string, ErrorExample] {
  const including = DEFAULT_PLANS.filter((plan) => plan.endpoints.includes(endpoint))
    .map((plan) => plan.name)
    .sort();
  const lacking = DEFAULT_PLANS.find((plan) => !plan.endpoints.includes(endpoint))?.name;
  const message = (plan: string) => `This endpoint (${endpoint}) is not part of the ${plan} plan. Plans that include it: ${including.join(', ')}.`;
  return lacking === undefined
    ? error(
        'endpoint_not_available_on_plan',
        "The key's plan, one an operator set up, does not include this endpoint (every seeded plan does)",
        message(OPERATOR_PLAN),
      )
    : error('endpoint_not_available_on_plan', "The key's plan does not include this endpoint", message(lacking));
}

/**
 * Named error examples of a status, those that are the same for every
 * operation of the endpoint. The 400 and 404 examples depend on what the
 * operation takes, and are its own (withOwnErrorExamples).
 */
export function errorExamples(endpoint: EndpointName, status: number): Record<string, ErrorExample> {
  const byStatus: Record<number, [string, ErrorExample][]> = {
    401: [
      error(
        'invalid_api_key',
        'No key, or a malformed, unknown or revoked key',
        'The API key is not valid. Send your API key as "Authorization: Bearer <key>" (or "X-API-Key: <key>").',
      ),
    ],
    403: [planRefusal(endpoint)],
    413: [error('payload_too_large', 'A body over 64 KiB', 'The request body is larger than 64 KiB. Send at most 200 ids per request.')],
    415: [error('unsupported_media_type', 'A body that is not JSON', 'Send the body as JSON, with the header Content-Type: application/json.')],
    429: [
      error(
        'rate_limit_exceeded',
        'Too many requests in this minute',
        'More than 600 requests in this minute (pro plan). The limit resets in 19 s, at the start of the next UTC minute.',
      ),
      error(
        'monthly_quota_exceeded',
        'The monthly allowance is used up',
        'The monthly allowance of 10000 requests of the free plan is used up. It resets at 2026-12-01T00:00:00.000Z (in 833779 s).',
      ),
    ],
    500: [error('internal_error', 'A fault on our side', 'Something went wrong on our side. Retry later; quote the request_id if it persists.')],
    503: [
      error(
        'service_unavailable',
        'The database cannot be reached',
        'The service cannot reach its database right now. Retry after the number of seconds in Retry-After.',
      ),
    ],
  };
  return Object.fromEntries(byStatus[status] ?? []);
}

/** What a route's schema says it takes: the query parameters, path parameters and body its 400 and 404 are about. */
interface OperationSchema {
  querystring?: { properties?: Record<string, unknown> };
  params?: { properties?: Record<string, unknown> };
  body?: unknown;
  response?: Record<string, { 'x-examples'?: Record<string, ErrorExample>; 'x-response-description'?: string }>;
}

/** An operation's invalid_parameter example: about its limit where it takes one, else as_of, else the body's ids, else its path. */
function invalidParameter(query: string[], path: string[], body: boolean): [string, ErrorExample] | null {
  const summary = 'A parameter has a bad value';
  if (query.includes('limit')) return error('invalid_parameter', summary, LIMIT_RULE, 'limit');
  if (query.includes('as_of')) {
    return error(
      'invalid_parameter',
      summary,
      'The as_of parameter must be a calendar date written YYYY-MM-DD, such as 2024-06-25; got "2024-02-30".',
      'as_of',
    );
  }
  if (body) return error('invalid_parameter', summary, 'ids must be an array of 1 to 200 code ids (strings such as "iso4217:EUR"); got 201.', 'ids');
  if (path[0] !== undefined) return error('invalid_parameter', 'A path parameter that is not valid percent-encoding', UNDECODABLE_PATH, path[0]);
  return null;
}

/** The 400 examples of an operation: each code it can answer, in its own words. */
function badRequestExamples(method: string, url: string, query: string[], path: string[], body: boolean): [string, ErrorExample][] {
  const invalid = invalidParameter(query, path, body);
  return [
    ...(invalid ? [invalid] : []),
    error('unknown_parameter', 'A parameter this endpoint does not define', unknownParameterMessage('offset', endpointLabel(method, url), query), 'offset'),
    ...(query.includes('cursor')
      ? [
          error(
            'invalid_cursor',
            'A cursor that was altered or belongs elsewhere',
            'The cursor is not valid for this request: malformed. Send the next_cursor of the previous page unchanged, with the same filters.',
            'cursor',
          ),
        ]
      : []),
    ...(body
      ? [error('invalid_body', 'A body that is not valid JSON', 'The request body is not valid JSON. Send a JSON object such as {"ids": ["iso4217:EUR"]}.')]
      : []),
    error(
      'api_key_in_query',
      'An API key in the query string',
      'An API key was sent in the query string, where it leaks into logs and browser history. Send it in the Authorization: Bearer header instead, and consider this key exposed: revoke it and create a new one.',
    ),
  ];
}

/** The 404 examples of an operation: code_not_found for a code in its path, system_not_found for a system. */
function notFoundExamples(path: string[]): [string, ErrorExample][] {
  return [
    ...(path.includes('code_id')
      ? [error('code_not_found', 'No code with this id', 'No code with id "iso4217:XYZ". Ids have the form {system}:{code}, e.g. iso4217:EUR.', 'code_id')]
      : []),
    ...(path.includes('system')
      ? [error('system_not_found', 'No system with this id', 'No system "iso4218". GET /v1/systems lists the systems.', 'system')]
      : []),
  ];
}

const BAD_REQUEST_CODES: Partial<Record<ErrorCode, string>> = {
  invalid_parameter: '`invalid_parameter` (`param` names it)',
  unknown_parameter: '`unknown_parameter`',
  invalid_cursor: '`invalid_cursor`',
  invalid_body: '`invalid_body` (a body that is not valid JSON, or not a JSON object)',
  api_key_in_query: '`api_key_in_query`',
};

function badRequestDescription(codes: string[]): string {
  const named = codes.map((code) => BAD_REQUEST_CODES[code as ErrorCode] ?? `\`${code}\``);
  return `A bad request: ${named.slice(0, -1).join(', ')}, or ${named.at(-1)!}.`;
}

function notFoundDescription(codes: string[], query: string[]): string {
  const named = codes.map((code) =>
    code === 'code_not_found'
      ? `\`code_not_found\`: no code with this id${query.includes('as_of') ? ' (or none on the `as_of` date)' : ''}`
      : `\`${code}\`: no such system`,
  );
  return `${named.join('; ')}.`;
}

/**
 * The operation's schema with its own 400 and 404 examples and descriptions:
 * only the codes it can answer (an invalid_cursor only where it takes a
 * cursor, a system_not_found only where its path names a system), each in the
 * words its route answers with: its unknown_parameter says whether it pages
 * and what it accepts, its invalid_parameter is about a parameter it takes.
 */
export function withOwnErrorExamples<S>(schema: S, method: string, url: string): S {
  const operation = schema as OperationSchema;
  const response = operation.response;
  if (response === undefined) return schema;
  const query = Object.keys(operation.querystring?.properties ?? {});
  const path = Object.keys(operation.params?.properties ?? {});
  const own = { ...response };
  const replace = (status: number, examples: [string, ErrorExample][], description: string) => {
    if (response[status] !== undefined)
      own[status] = { ...response[status], 'x-examples': Object.fromEntries(examples), 'x-response-description': description };
  };
  const bad = badRequestExamples(method, url, query, path, operation.body !== undefined);
  replace(400, bad, badRequestDescription(bad.map(([code]) => code)));
  const missing = notFoundExamples(path);
  replace(
    404,
    missing,
    notFoundDescription(
      missing.map(([code]) => code),
      query,
    ),
  );
  return { ...schema, response: own };
}

EXAMPLES.systemsPage.data = [EXAMPLES.system];
