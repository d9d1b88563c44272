/**
 * POST /v1/codes/batch: up to 200 codes in one request, now or on a past
 * date. One batch counts as one request toward the limits.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError } from '../../errors.ts';
import { isIsoDate } from '../../domain/records.ts';
import { BATCH_ID_MAX_LENGTH, BATCH_MAX_IDS, batchCodes } from '../../services/navigation.ts';
import { BODY_LIMIT, requireJsonBody } from '../body-errors.ts';
import { invalidDate } from '../parameter-errors.ts';
import { NAVIGATION_EXAMPLES } from '../navigation-examples.ts';
import { BatchBody, BatchResult } from '../navigation-schemas.ts';
import { NoQuery, errorResponses, okResponse } from '../schemas.ts';
import { JSON_TYPE, type RouteDeps } from './v1-types.ts';

const FIELDS = ['ids', 'as_of'];
const IDS_RULE = `ids must be an array of 1 to ${BATCH_MAX_IDS} code ids (strings such as "iso4217:EUR")`;

/** How many characters a string holds: Unicode code points, as the schema's maxLength counts them. */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** A JSON value that is not a string, as a message names it. */
const kindOf = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;

/** What is wrong with the id at index i, or null. */
function idProblem(id: unknown, i: number): string | null {
  if (typeof id !== 'string') return `ids[${i}] is ${kindOf(id)}, not a string`;
  if (id.length === 0) return `ids[${i}] is empty`;
  // Code points never outnumber UTF-16 units: counted only where they can pass the limit.
  if (id.length > BATCH_ID_MAX_LENGTH && characters(id) > BATCH_ID_MAX_LENGTH)
    return `ids[${i}] is ${characters(id)} characters long, and an id has at most ${BATCH_ID_MAX_LENGTH}`;
  return null;
}

/**
 * preValidation hook: the body's first problem, named by its field. It runs
 * before schema validation, which coerces types (a number to a string, a
 * string to an array) as it does for query strings: a body is taken as sent.
 * The schema documents the shape; this words the answer.
 */
async function rejectBadBody(request: FastifyRequest): Promise<void> {
  const problem = bodyProblem(request);
  if (problem) throw problem;
}

function bodyProblem(request: FastifyRequest): ApiError | null {
  const body: unknown = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return new ApiError('invalid_body', 'The request body must be a JSON object such as {"ids": ["iso4217:EUR"]}.');
  }
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => !FIELDS.includes(name));
  if (unknown !== undefined) {
    return new ApiError(
      'unknown_parameter',
      `Unknown field ${JSON.stringify(unknown.slice(0, 64))} in the body. POST /v1/codes/batch accepts: ${FIELDS.join(', ')}.`,
      { param: unknown },
    );
  }
  const { ids, as_of: asOf } = fields;
  if (!Array.isArray(ids)) return new ApiError('invalid_parameter', `The body has no ids: ${IDS_RULE}.`, { param: 'ids' });
  if (ids.length === 0 || ids.length > BATCH_MAX_IDS) return new ApiError('invalid_parameter', `${IDS_RULE}; got ${ids.length}.`, { param: 'ids' });
  for (const [i, id] of ids.entries()) {
    const problem = idProblem(id, i);
    if (problem !== null) return new ApiError('invalid_parameter', `${IDS_RULE}; ${problem}.`, { param: 'ids' });
  }
  if (asOf !== undefined && (typeof asOf !== 'string' || !isIsoDate(asOf))) return invalidDate('as_of', asOf);
  return null;
}

export async function batchRoutes(parent: FastifyInstance, { store }: RouteDeps): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/codes/batch',
    {
      config: { endpoint: 'codes.batch' },
      bodyLimit: BODY_LIMIT,
      preValidation: [requireJsonBody, rejectBadBody],
      schema: {
        operationId: 'batchGetCodes',
        summary: 'Get many codes in one request',
        description: `Up to ${BATCH_MAX_IDS} code records by id, optionally as they stood on \`as_of\`. The records found come in the order of \`ids\`, each once; the ids not found are listed in \`not_found\`. One batch counts as one request toward the rate and the monthly allowance.`,
        tags: ['codes'],
        querystring: NoQuery,
        body: BatchBody,
        response: {
          200: okResponse(BatchResult, NAVIGATION_EXAMPLES.batch, 'The codes found and the ids not found.'),
          ...errorResponses('codes.batch', 413, 415),
        },
      },
    },
    async (request, reply) => {
      const { ids, as_of: asOf } = request.body;
      // The body is bytes (see batchCodes), which the schema-typed reply does not know of.
      (reply as FastifyReply).type(JSON_TYPE).send(await batchCodes(store, ids, asOf ?? null));
      return reply;
    },
  );
}
