/**
 * TypeBox schemas of everything /v1 sends and accepts. Fastify validates
 * queries with them and @fastify/swagger turns them into /openapi.json, so the
 * document and the behaviour come from one source.
 */
import { Type, type Static, type TSchema } from 'typebox';
import type { JsonBody, JsonText } from '../domain/json-text.ts';
import type { EndpointName } from '../domain/access.ts';
import { CHANGE_TYPES, CODE_STATUSES, CONTENT_FIELDS } from '../domain/records.ts';
import { ERROR_CODES } from '../errors.ts';
import { errorExamples } from './examples.ts';

const stringEnum = (values: readonly string[], description: string) => Type.Unsafe<string>({ type: 'string', enum: [...values], description });

const Date_ = (description: string) => Type.String({ format: 'date', description, examples: ['2024-06-25'] });

export const Limit = Type.Integer({
  minimum: 1,
  default: 50,
  description: 'Maximum records on the page: default 50, maximum 200. A larger value is clamped to 200.',
});
export const Cursor = Type.String({
  description: "The previous response's pagination.next_cursor, unchanged. Opaque: do not parse it.",
});
const SystemFilter = Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{0,63}$', description: 'Only codes of this system.' });

export const CodesQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    system: Type.Optional(SystemFilter),
    status: Type.Optional(stringEnum(CODE_STATUSES, 'Only codes with this status.')),
    as_of: Type.Optional(
      Date_(
        'The codes as they stood once every change effective on or before this date was applied: codes added later are left out, and every field is that of the date. Without it: the codes as the latest import left them, changes effective after today included (an import may be dated ahead); send the current date for what holds today.',
      ),
    ),
  },
  { additionalProperties: false },
);

const changeFilters = {
  limit: Type.Optional(Limit),
  cursor: Type.Optional(Cursor),
  type: Type.Optional(stringEnum(CHANGE_TYPES, 'Only changes of this type.')),
  effective_from: Type.Optional(Date_('Only changes effective on or after this date (inclusive).')),
  effective_to: Type.Optional(Date_('Only changes effective on or before this date (inclusive).')),
};

export const ChangesQuery = Type.Object(
  {
    ...changeFilters,
    system: Type.Optional(SystemFilter),
    code_id: Type.Optional(Type.String({ minLength: 3, maxLength: 1024, description: 'Only changes of this code.' })),
    release: Type.Optional(
      Type.String({ minLength: 1, maxLength: 256, description: 'Only changes of this release (the import that produced them), e.g. `2026-01`.' }),
    ),
  },
  { additionalProperties: false },
);

export const CodeChangesQuery = Type.Object(changeFilters, { additionalProperties: false });

/** GET /v1/codes/{code_id} takes no query parameters: any is unknown_parameter. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const CodeIdParams = Type.Object({
  code_id: Type.String({
    description: '`{system}:{code}`, percent-encoded (a `/` in the code is sent as `%2F`).',
    examples: ['iso4217:EUR'],
  }),
});

const AttributeValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const contentFields = {
  display: Type.String(),
  definition: Type.Union([Type.String(), Type.Null()]),
  status: stringEnum(CODE_STATUSES, 'Lifecycle status of the code.'),
  parents: Type.Array(Type.String(), { description: 'code_ids of the parent codes.' }),
  attributes: Type.Record(Type.String(), AttributeValue, { description: 'Every other column of the source.' }),
};

export const CodeRecord = Type.Object(
  {
    object: Type.Literal('code'),
    id: Type.String({ description: '`{system}:{code}`; immutable.', examples: ['iso4217:EUR'] }),
    system: Type.String(),
    code: Type.String({ description: 'As published, case kept.' }),
    ...contentFields,
    release: Type.String({ description: 'The release that last changed this record.' }),
    effective_from: Type.String({ format: 'date', description: 'Effective date of the change that added it.' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the service last wrote it.' }),
  },
  { additionalProperties: false },
);

// The options go on Partial: it drops those of the object it is given.
const PartialContent = Type.Union([Type.Partial(Type.Object(contentFields), { additionalProperties: false }), Type.Null()]);

export const ChangeRecord = Type.Object(
  {
    object: Type.Literal('change'),
    id: Type.Integer({ description: 'Row id: assigned in commit order, never reused.' }),
    code_id: Type.String(),
    type: stringEnum(CHANGE_TYPES, 'What happened to the code.'),
    effective_date: Type.String({ format: 'date' }),
    release: Type.String({ description: 'The import that produced it.' }),
    fields: Type.Array(stringEnum(CONTENT_FIELDS, 'A field of the code.'), { description: 'Fields that changed; empty for added.' }),
    before: PartialContent,
    after: PartialContent,
    recorded_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const count = (description: string) => Type.Integer({ minimum: 0, description });

export const SystemRecord = Type.Object(
  {
    object: Type.Literal('system'),
    id: Type.String({ description: 'The system, as in code ids (`{system}:{code}`).', examples: ['iso4217'] }),
    name: Type.String({ description: 'Its name; the id until the operator sets one, and again once the operator clears it.' }),
    description: nullableText('What it codes; null until set.'),
    url: nullableText("The publisher's page for it; null until set."),
    publisher: nullableText('Who publishes it; null until set.'),
    license: nullableText('Terms of use; null until set.'),
    counts: Type.Object(
      { active: count('Active codes.'), deprecated: count('Deprecated codes.'), retired: count('Retired codes.') },
      { additionalProperties: false },
    ),
    latest_release: nullableText('The release imported last.'),
    latest_effective_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description:
        'The latest effective date of its releases, a release that changed nothing included. No import records changes dated before it unless its operator forces one, so asking for its changes from this date on (`effective_from`) misses none recorded later.',
    }),
    updated_at: Type.String({ format: 'date-time', description: 'When an import or the operator last changed it.' }),
  },
  { additionalProperties: false },
);

export const ReleaseRecord = Type.Object(
  {
    object: Type.Literal('release'),
    system: Type.String(),
    id: Type.String({ description: 'The release name, unique within its system.', examples: ['2026-01'] }),
    effective_date: Type.String({ format: 'date' }),
    mode: stringEnum(
      ['snapshot', 'delta'],
      'snapshot: the file was the whole system (missing codes retired); delta: only its rows changed. Releases recorded before releases existed say delta.',
    ),
    imported_at: Type.String({ format: 'date-time' }),
    counts: Type.Object(
      { added: count('Codes added.'), revised: count('Codes revised.'), retired: count('Codes retired.'), reactivated: count('Codes reactivated.') },
      { additionalProperties: false },
    ),
    first_change_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Id of its first change; null when it changed nothing.' }),
    last_change_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Id of its last change; null when it changed nothing.' }),
  },
  { additionalProperties: false },
);

export const PagingQuery = Type.Object({ limit: Type.Optional(Limit), cursor: Type.Optional(Cursor) }, { additionalProperties: false });

export const SystemParams = Type.Object({
  system: Type.String({
    description: 'The system id, e.g. `iso4217`. A name no system can have (upper case, over 64 characters) is no such system: `404 system_not_found`.',
    examples: ['iso4217'],
  }),
});

export function PageOf<S extends TSchema>(item: S, description: string) {
  return Type.Object(
    {
      data: Type.Array(item),
      pagination: Type.Object(
        {
          has_more: Type.Boolean({ description: 'true when further records exist after this page.' }),
          next_cursor: Type.Optional(Type.String({ description: 'Present only when has_more is true: send it as cursor to get the next page.' })),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false, description },
  );
}

export const ErrorBody = Type.Object(
  {
    error: Type.Object(
      {
        code: stringEnum(ERROR_CODES, 'Stable, machine-readable error code.'),
        message: Type.String({ description: 'Human-readable explanation; may change.' }),
        param: Type.Optional(Type.String({ description: 'The parameter at fault, when there is one.' })),
        request_id: Type.String({ description: 'Same as the Request-Id response header.' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: 'Every error has this shape.' },
);

const header = (description: string, example: string) => ({ type: 'string', description, examples: [example] });
const REQUEST_ID = header(
  'Identifies the request; the same as request_id in an error body. Quote it when asking about a request.',
  'req_9bf2773cfa844df4857447ca197256b5',
);
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': header(
    'The limits of your plan (IETF RateLimit fields): q requests per window, w the window in seconds. No month part on a plan without a monthly limit.',
    '"minute";q=600;w=60, "month";q=1000000',
  ),
  RateLimit: header('What remains (IETF RateLimit fields): r requests, t seconds until the window resets.', '"minute";r=596;t=19, "month";r=999996;t=833779'),
};
const RETRY_AFTER = header('Seconds to wait before retrying.', '19');
const CHALLENGE = header(
  'The scheme to send the key with (RFC 9110 §11.6.1): `Authorization: Bearer <key>`, or `X-API-Key: <key>`.',
  'Bearer realm="codebook"',
);
const NO_STORE = header('An error answer is never to be kept by a cache.', 'no-store');

/** What each error status means, for the operations that document it. */
const ERROR_RESPONSES: Record<number, { description: string; headers: Record<string, unknown> }> = {
  400: {
    description:
      'A bad request: `invalid_parameter` (`param` names it), `unknown_parameter`, `invalid_cursor`, `invalid_body` (a body that is not valid JSON, or not a JSON object), or `api_key_in_query`.',
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE, ...RATE_LIMIT_HEADERS },
  },
  401: {
    description: '`invalid_api_key`: no key, or a malformed, unknown or revoked key.',
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE, 'WWW-Authenticate': CHALLENGE },
  },
  403: {
    description: "`endpoint_not_available_on_plan`: the key's plan does not include this endpoint.",
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE, ...RATE_LIMIT_HEADERS },
  },
  404: {
    description:
      '`code_not_found` (code endpoints): no code with this id (or none on the `as_of` date); `system_not_found` (system endpoints): no such system.',
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE, ...RATE_LIMIT_HEADERS },
  },
  413: {
    description: '`payload_too_large`: the request body is larger than 64 KiB.',
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE, ...RATE_LIMIT_HEADERS },
  },
  415: {
    description: '`unsupported_media_type`: the body is not sent as `application/json`.',
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE, ...RATE_LIMIT_HEADERS },
  },
  429: {
    description: '`rate_limit_exceeded` (this minute) or `monthly_quota_exceeded` (this month): wait `Retry-After` seconds.',
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE, ...RATE_LIMIT_HEADERS, 'Retry-After': RETRY_AFTER },
  },
  500: { description: '`internal_error`: a fault on our side. Quote the `request_id`.', headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE } },
  503: {
    description: '`service_unavailable`: the service cannot reach its database. Retry after `Retry-After` seconds.',
    headers: { 'Request-Id': REQUEST_ID, 'Cache-Control': NO_STORE, 'Retry-After': RETRY_AFTER },
  },
};

/**
 * A 200 response: its schema, an example, and the headers of an admitted
 * request. The example goes on the response (@fastify/swagger moves it to the
 * media type), not on the shared record schemas.
 */
/**
 * A 200 response: the schema with its example and headers. Its type admits
 * the value or its JSON text (records are sent as the text they are stored
 * as), so a route can send only text that holds what the schema describes.
 */
export function okResponse<S extends TSchema>(schema: S, example: unknown, description?: string) {
  return Type.Unsafe<Static<S> | JsonText<Static<S>> | JsonBody<Static<S>>>({
    ...schema,
    examples: [example],
    headers: { 'Request-Id': REQUEST_ID, ...RATE_LIMIT_HEADERS },
    ...(description ? { 'x-response-description': description } : {}),
  });
}

/**
 * The error statuses every /v1 route can answer with, each with its codes, headers and an example per code.
 * The 400 and 404 name the codes of all routes here; /openapi.json narrows each to its operation's own
 * codes, examples and words (withOwnErrorExamples), which depend on what the operation takes.
 */
export function errorResponses(endpoint: EndpointName, ...extra: number[]) {
  const statuses = [400, 401, 403, 429, 500, 503, ...extra].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        ...ErrorBody,
        'x-response-description': ERROR_RESPONSES[status]!.description,
        'x-examples': errorExamples(endpoint, status),
        headers: ERROR_RESPONSES[status]!.headers,
      },
    ]),
  );
}
