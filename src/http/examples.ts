/**
 * Example responses for /openapi.json and the reference at /docs: records and
 * pages from the demo data set, and one error body per error code as the
 * service words it. A test validates each against its response schema.
 */
import { DEFAULT_PLANS, type EndpointName } from '../domain/access.ts';
import type { ErrorCode } from '../errors.ts';
import { endpointLabel, unknownParameterMessage } from './parameter-errors.ts';

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

function planRefusal(endpoint: EndpointName): string {
  const including = DEFAULT_PLANS.filter((plan) => plan.endpoints.includes(endpoint)).map((plan) => plan.name);
  // Every seeded plan includes some endpoints; an operator's own plan may not.
  const lacking = DEFAULT_PLANS.find((plan) => !plan.endpoints.includes(endpoint))?.name ?? 'starter';
  return `This endpoint (${endpoint}) is not part of the ${lacking} plan. Plans that include it: ${including.join(', ')}.`;
}

/** Named error examples for each status an operation documents. */
export function errorExamples(endpoint: EndpointName, status: number): Record<string, ErrorExample> {
  const byStatus: Record<number, [string, ErrorExample][]> = {
    400: [
      error(
        'invalid_parameter',
        'A parameter has a bad value',
        'The limit parameter must be an integer of at least 1 (values above 200 are clamped to 200).',
        'limit',
      ),
      error(
        'unknown_parameter',
        'A parameter this endpoint does not define',
        // Each operation's own words replace these (withOwnUnknownParameterExample).
        'Unknown query parameter "offset".',
        'offset',
      ),
      error(
        'invalid_cursor',
        'A cursor that was altered or belongs elsewhere',
        'The cursor is not valid for this request: malformed. Send the next_cursor of the previous page unchanged, with the same filters.',
        'cursor',
      ),
      ...(endpoint === 'codes.batch'
        ? [error('invalid_body', 'A body that is not valid JSON', 'The request body is not valid JSON. Send a JSON object such as {"ids": ["iso4217:EUR"]}.')]
        : []),
      error(
        'api_key_in_query',
        'An API key in the query string',
        'An API key was sent in the query string, where it leaks into logs and browser history. Send it in the Authorization: Bearer header instead, and consider this key exposed: revoke it and create a new one.',
      ),
    ],
    401: [
      error(
        'invalid_api_key',
        'No key, or a malformed, unknown or revoked key',
        'The API key is not valid. Send your API key as "Authorization: Bearer <key>" (or "X-API-Key: <key>").',
      ),
    ],
    403: [error('endpoint_not_available_on_plan', "The key's plan does not include this endpoint", planRefusal(endpoint))],
    404:
      endpoint === 'systems.list'
        ? [error('system_not_found', 'No system with this id', 'No system "iso4218". GET /v1/systems lists the systems.', 'system')]
        : [
            error('code_not_found', 'No code with this id', 'No code with id "iso4217:XYZ". Ids have the form {system}:{code}, e.g. iso4217:EUR.', 'code_id'),
            ...(endpoint === 'codes.hierarchy'
              ? [error('system_not_found', 'No system with this id', 'No system "iso4218". GET /v1/systems lists the systems.', 'system')]
              : []),
          ],
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

EXAMPLES.systemsPage.data = [EXAMPLES.system];

interface OperationSchema {
  querystring?: { properties?: Record<string, unknown> };
  response?: Record<string, { 'x-examples'?: Record<string, ErrorExample> }>;
}

/**
 * The operation's schema with its unknown_parameter example (shared by every
 * operation until here) in the words its own route answers `?offset=…` with:
 * whether it pages, and the parameters it accepts.
 */
export function withOwnUnknownParameterExample<S>(schema: S, method: string, url: string): S {
  const operation = schema as OperationSchema;
  const bad = operation.response?.[400];
  const example = bad?.['x-examples']?.unknown_parameter;
  if (bad === undefined || example === undefined) return schema;
  const accepted = Object.keys(operation.querystring?.properties ?? {});
  const message = unknownParameterMessage('offset', endpointLabel(method, url), accepted);
  const own: ErrorExample = { ...example, value: { error: { ...example.value.error, message } } };
  return { ...schema, response: { ...operation.response, 400: { ...bad, 'x-examples': { ...bad['x-examples'], unknown_parameter: own } } } };
}
