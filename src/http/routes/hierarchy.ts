/**
 * Where a code sits: its children, its descendants at any depth, its
 * ancestors nearest first, and the roots of a system. Collections like every
 * other: page envelope, limit, cursor, a status filter; their answers are
 * kept whole like the other pages' (kept-answers.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { CodeRecord as CodeRecordJson, CodeStatus } from '../../domain/records.ts';
import { listAncestors, listChildren, listDescendants, listRoots } from '../../services/navigation.ts';
import type { AncestorKey } from '../../domain/navigation.ts';
import type { RawPage } from '../../domain/pages.ts';
import { effectiveLimit, filterBinding, pageEnvelope, positionAfter, rejectLooseLimit, type Collection } from '../pagination.ts';
import { checkParameterValues } from '../parameter-errors.ts';
import { NAVIGATION_EXAMPLES } from '../navigation-examples.ts';
import { HierarchyQuery } from '../navigation-schemas.ts';
import { CodeIdParams, CodeRecord, PageOf, SystemParams, errorResponses, okResponse } from '../schemas.ts';
import { sendAndKeep, sendKeptAnswer } from '../kept-answers.ts';
import { bodyFor, type RouteDeps } from './v1-types.ts';

const byId = (name: string): Collection<string> => ({
  name,
  toSortKey: (id) => [id],
  fromSortKey: (key) => (key.length === 1 && typeof key[0] === 'string' ? key[0] : null),
});

export const childrenCollection = byId('children');
export const descendantsCollection = byId('descendants');
export const rootsCollection = byId('roots');
export const ancestorsCollection: Collection<AncestorKey> = {
  name: 'ancestors',
  toSortKey: (key) => [key.distance, key.id],
  fromSortKey: ([distance, id, ...rest]) =>
    Number.isSafeInteger(distance) && (distance as number) >= 1 && typeof id === 'string' && rest.length === 0 ? { distance: distance as number, id } : null,
};

const hooks = [checkParameterValues, rejectLooseLimit];
const GRAPH = 'Parents form a graph, not a tree: a code with two parents is a child of each.';

export async function hierarchyRoutes(parent: FastifyInstance, { store, cursors, bodies }: RouteDeps): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  const relatives = <K>(
    path: string,
    operationId: string,
    summary: string,
    description: string,
    collection: Collection<K>,
    example: unknown,
    list: (query: { id: string; after: K | null; limit: number; status: CodeStatus | null }) => Promise<RawPage<K, CodeRecordJson>>,
  ) =>
    app.get(
      `/codes/:code_id/${path}`,
      {
        config: { endpoint: 'codes.hierarchy' },
        preValidation: hooks,
        schema: {
          operationId,
          summary,
          description,
          tags: ['hierarchy'],
          params: CodeIdParams,
          querystring: HierarchyQuery,
          response: { 200: okResponse(PageOf(CodeRecord, `A page of ${path}.`), example), ...errorResponses('codes.hierarchy', 404) },
        },
      },
      async (request, reply) => {
        const kept = sendKeptAnswer(store.answers, bodies, request, reply);
        if (kept === null) return reply;
        const { limit, cursor, status } = request.query;
        const id = request.params.code_id;
        const binding = filterBinding({ code_id: id, status });
        const page = await list({
          id,
          after: positionAfter(cursors, cursor, collection, binding),
          limit: effectiveLimit(limit),
          status: (status as CodeStatus | undefined) ?? null,
        });
        sendAndKeep(store.answers, kept, request, reply, pageEnvelope(page, cursors, collection, binding, bodyFor(bodies, reply)));
        return reply;
      },
    );

  relatives(
    'children',
    'listChildren',
    'List the children of a code',
    `Codes that name this one among their \`parents\`, ordered by id. ${GRAPH}`,
    childrenCollection,
    NAVIGATION_EXAMPLES.childrenPage,
    (q) => listChildren(store, q),
  );
  relatives(
    'descendants',
    'listDescendants',
    'List every code below a code',
    `Every code below this one at any depth, each once even where several paths lead to it, ordered by id. ${GRAPH}`,
    descendantsCollection,
    NAVIGATION_EXAMPLES.descendantsPage,
    (q) => listDescendants(store, q),
  );
  relatives(
    'ancestors',
    'listAncestors',
    'List every code above a code',
    `Every code above this one, nearest first: by the length of the shortest path to it, then by id. ${GRAPH} Codes that an import adds during a walk never disturb it, but an import that changes parents along the way during a walk may change an ancestor's distance, and so make it appear twice or not at all (see Paging with cursors).`,
    ancestorsCollection,
    NAVIGATION_EXAMPLES.ancestorsPage,
    (q) => listAncestors(store, q),
  );

  app.get(
    '/systems/:system/roots',
    {
      config: { endpoint: 'codes.hierarchy' },
      preValidation: hooks,
      schema: {
        operationId: 'listSystemRoots',
        summary: 'List the roots of a system',
        description: 'The codes of the system that have no parents, ordered by id. In a system without a hierarchy, every code is a root.',
        tags: ['hierarchy'],
        params: SystemParams,
        querystring: HierarchyQuery,
        response: { 200: okResponse(PageOf(CodeRecord, 'A page of root codes.'), NAVIGATION_EXAMPLES.rootsPage), ...errorResponses('codes.hierarchy', 404) },
      },
    },
    async (request, reply) => {
      const kept = sendKeptAnswer(store.answers, bodies, request, reply);
      if (kept === null) return reply;
      const { limit, cursor, status } = request.query;
      const { system } = request.params;
      const binding = filterBinding({ system, status });
      const page = await listRoots(store, {
        system,
        after: positionAfter(cursors, cursor, rootsCollection, binding),
        limit: effectiveLimit(limit),
        status: (status as CodeStatus | undefined) ?? null,
      });
      sendAndKeep(store.answers, kept, request, reply, pageEnvelope(page, cursors, rootsCollection, binding, bodyFor(bodies, reply)));
      return reply;
    },
  );
}
