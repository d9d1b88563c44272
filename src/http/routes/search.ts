import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { CodeStatus } from '../../domain/records.ts';
import { QUERY_MAX_LENGTH, searchCodes, searchQueryText } from '../../services/search.ts';
import type { SearchGroup, SearchKey } from '../../domain/search.ts';
import { effectiveLimit, filterBinding, pageEnvelope, positionAfter, rejectLooseLimit, type Collection } from '../pagination.ts';
import { checkParameterValues } from '../parameter-errors.ts';
import { EXAMPLES } from '../examples.ts';
import { CodeRecord, CodesQuery, PageOf, errorResponses, okResponse } from '../schemas.ts';
import { bodyFor, sendJsonText, type RouteDeps } from './v1-types.ts';

/** Sort keys: [1, id], [2, folded code, id], [3, folded display, id], [4, search sequence]. */
export const searchCollection: Collection<SearchKey> = {
  name: 'codes.search',
  toSortKey: (k) => (k.group === 4 ? [4, k.seq] : k.group === 1 ? [1, k.id] : [k.group, k.text, k.id]),
  fromSortKey: (key) => {
    const [group, a, b] = key;
    if (group === 1 && key.length === 2 && typeof a === 'string') return { group, text: '', id: a, seq: 0 };
    if ((group === 2 || group === 3) && key.length === 3 && typeof a === 'string' && typeof b === 'string')
      return { group: group as SearchGroup, text: a, id: b, seq: 0 };
    if (group === 4 && key.length === 2 && Number.isSafeInteger(a) && (a as number) >= 0) return { group, text: '', id: '', seq: a as number };
    return null;
  },
};

const SearchQuery = Type.Object(
  {
    q: Type.String({
      description: `The text to search for, ${QUERY_MAX_LENGTH} characters at most once trimmed. Case and accents are ignored. A code matches when every word of q starts a word of its code, display or definition, or when q (punctuation kept) starts its code.`,
      examples: ['sao tome'],
    }),
    // as_of is not searched: the search index holds the codes as the latest import left them.
    ...Type.Omit(CodesQuery, ['as_of']).properties,
  },
  { additionalProperties: false, required: ['q'] },
);

/** Before schema validation: a missing, empty or over-long q is invalid_parameter with param q. */
async function checkQuery(request: FastifyRequest): Promise<void> {
  searchQueryText((request.query as Record<string, unknown>).q);
}

export async function searchRoutes(parent: FastifyInstance, { store, cursors, bodies }: RouteDeps): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/codes/search',
    {
      config: { endpoint: 'codes.search' },
      preValidation: [checkParameterValues, checkQuery, rejectLooseLimit],
      schema: {
        operationId: 'searchCodes',
        summary: 'Search codes',
        description:
          'Codes matching `q`, case- and accent-insensitive (`sao tome` finds São Tomé), as you type (`diab mell` finds Diabetes mellitus). ' +
          'Results come in four groups: the code equals q; the code starts with q (by code); the display starts with q (by display); every other match (in the order the codes were first imported). ' +
          'Each group is read in that fixed order, so paging has no depth limit and a deep page costs what the first one costs. ' +
          'Codes that an import adds during a walk never disturb it, but a code whose display an import revises during a walk may change group, and so appear twice or not at all (see Paging with cursors).',
        tags: ['codes'],
        querystring: SearchQuery,
        response: { 200: okResponse(PageOf(CodeRecord, 'A page of matching codes.'), EXAMPLES.searchPage), ...errorResponses('codes.search') },
      },
    },
    async (request, reply) => {
      const { limit, cursor, system, status } = request.query;
      const q = searchQueryText(request.query.q);
      const binding = filterBinding({ q, system, status });
      const page = await searchCodes(store, {
        q,
        after: positionAfter(cursors, cursor, searchCollection, binding),
        limit: effectiveLimit(limit),
        system: system ?? null,
        status: (status as CodeStatus | undefined) ?? null,
      });
      sendJsonText(reply, pageEnvelope(page, cursors, searchCollection, binding, bodyFor(bodies, reply)));
      return reply;
    },
  );
}
