import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { CodeStatus } from '../../domain/records.ts';
import { getCode, getCodeNow, listCodes } from '../../services/catalog.ts';
import { getCodeAsOf, listCodesAsOf } from '../../services/navigation.ts';
import { CodeQuery } from '../navigation-schemas.ts';
import { effectiveLimit, filterBinding, pageEnvelope, positionAfter, rejectLooseLimit, type Collection } from '../pagination.ts';
import { checkParameterValues } from '../parameter-errors.ts';
import { EXAMPLES } from '../examples.ts';
import { sendAndKeep, sendKeptAnswer } from '../kept-answers.ts';
import { CodeIdParams, CodeRecord, CodesQuery, PageOf, errorResponses, okResponse } from '../schemas.ts';
import { bodyFor, sendJsonText, type RouteDeps } from './v1-types.ts';

export const codesCollection: Collection<string> = {
  name: 'codes',
  toSortKey: (id) => [id],
  fromSortKey: (key) => (key.length === 1 && typeof key[0] === 'string' ? key[0] : null),
};

export async function codesRoutes(parent: FastifyInstance, { store, cursors, bodies }: RouteDeps): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/codes',
    {
      config: { endpoint: 'codes.list' },
      preValidation: [checkParameterValues, rejectLooseLimit],
      schema: {
        operationId: 'listCodes',
        summary: 'List codes',
        description: 'Pages through every code, ordered by id (binary string order); with `as_of`, the codes as they stood on that date.',
        tags: ['codes'],
        querystring: CodesQuery,
        response: { 200: okResponse(PageOf(CodeRecord, 'A page of codes.'), EXAMPLES.codesPage), ...errorResponses('codes.list') },
      },
    },
    async (request, reply) => {
      const { limit, cursor, system, status, as_of: asOf } = request.query;
      const kept = sendKeptAnswer(store.answers, bodies, request, reply);
      if (kept === null) return reply;
      const binding = filterBinding({ system, status, as_of: asOf });
      const query = {
        after: positionAfter(cursors, cursor, codesCollection, binding),
        limit: effectiveLimit(limit),
        system: system ?? null,
        status: (status as CodeStatus | undefined) ?? null,
      };
      const page = asOf === undefined ? await listCodes(store, query) : await listCodesAsOf(store, { ...query, asOf });
      sendAndKeep(store.answers, kept, request, reply, pageEnvelope(page, cursors, codesCollection, binding, bodyFor(bodies, reply)));
      return reply;
    },
  );

  app.get(
    '/codes/:code_id',
    {
      config: { endpoint: 'codes.get' },
      preValidation: checkParameterValues,
      schema: {
        operationId: 'getCode',
        summary: 'Get one code',
        description:
          'One code record by its id, `{system}:{code}`. Percent-encode the id as a path segment: a `/` in the code is sent as `%2F`. A retired code is still served, with `status: retired`. With `as_of`, the record as it stood on that date.',
        tags: ['codes'],
        params: CodeIdParams,
        querystring: CodeQuery,
        response: { 200: okResponse(CodeRecord, EXAMPLES.code, 'The code record.'), ...errorResponses('codes.get', 404) },
      },
    },
    (request, reply) => {
      const id = request.params.code_id;
      const asOf = request.query.as_of;
      // Nearly always answered at once (the read cache, or SQLite), without a promise.
      const now = asOf === undefined ? getCodeNow(store, id) : undefined;
      if (now !== undefined) return sendJsonText(reply, now);
      return (asOf === undefined ? getCode(store, id) : getCodeAsOf(store, id, asOf)).then((json) => sendJsonText(reply, json));
    },
  );
}
