import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { getSystem, listReleases, listSystems } from '../../services/systems.ts';
import { effectiveLimit, pageEnvelope, positionAfter, rejectLooseLimit, type Collection } from '../pagination.ts';
import { checkParameterValues } from '../parameter-errors.ts';
import { EXAMPLES } from '../examples.ts';
import { NoQuery, PageOf, PagingQuery, ReleaseRecord, SystemParams, SystemRecord, errorResponses, okResponse } from '../schemas.ts';
import { bodyFor, sendJsonText, type RouteDeps } from './v1-types.ts';

export const systemsCollection: Collection<string> = {
  name: 'systems',
  toSortKey: (id) => [id],
  fromSortKey: (key) => (key.length === 1 && typeof key[0] === 'string' ? key[0] : null),
};

export const releasesCollection: Collection<number> = {
  name: 'releases',
  toSortKey: (seq) => [seq],
  fromSortKey: (key) => (key.length === 1 && Number.isSafeInteger(key[0]) && (key[0] as number) > 0 ? (key[0] as number) : null),
};

export async function systemsRoutes(parent: FastifyInstance, { store, cursors, bodies }: RouteDeps): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const paging = [checkParameterValues, rejectLooseLimit];

  app.get(
    '/systems',
    {
      config: { endpoint: 'systems.list' },
      preValidation: paging,
      schema: {
        operationId: 'listSystems',
        summary: 'List systems',
        description: 'Pages through the code systems, ordered by id, with their counts of codes by status and their latest release.',
        tags: ['systems'],
        querystring: PagingQuery,
        response: { 200: okResponse(PageOf(SystemRecord, 'A page of systems.'), EXAMPLES.systemsPage), ...errorResponses('systems.list') },
      },
    },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      const page = await listSystems(store, positionAfter(cursors, cursor, systemsCollection, ''), effectiveLimit(limit));
      sendJsonText(reply, pageEnvelope(page, cursors, systemsCollection, '', bodyFor(bodies, reply)));
      return reply;
    },
  );

  app.get(
    '/systems/:system',
    {
      config: { endpoint: 'systems.list' },
      schema: {
        operationId: 'getSystem',
        summary: 'Get one system',
        description: 'One code system: its name and publisher, its codes counted by status, its latest release.',
        tags: ['systems'],
        params: SystemParams,
        querystring: NoQuery,
        response: { 200: okResponse(SystemRecord, EXAMPLES.system, 'The system.'), ...errorResponses('systems.list', 404) },
      },
    },
    async (request, reply) => {
      sendJsonText(reply, await getSystem(store, request.params.system));
      return reply;
    },
  );

  app.get(
    '/systems/:system/releases',
    {
      config: { endpoint: 'systems.list' },
      preValidation: paging,
      schema: {
        operationId: 'listReleases',
        summary: "List a system's releases",
        description:
          'The releases of one system in the order they were imported, each with its effective date, mode, counts of changes and the range of change ids it wrote.',
        tags: ['systems'],
        params: SystemParams,
        querystring: PagingQuery,
        response: { 200: okResponse(PageOf(ReleaseRecord, 'A page of releases.'), EXAMPLES.releasesPage), ...errorResponses('systems.list', 404) },
      },
    },
    async (request, reply) => {
      const { limit, cursor } = request.query;
      const { system } = request.params;
      const binding = `system=${encodeURIComponent(system)}`;
      const page = await listReleases(store, system, positionAfter(cursors, cursor, releasesCollection, binding), effectiveLimit(limit));
      sendJsonText(reply, pageEnvelope(page, cursors, releasesCollection, binding, bodyFor(bodies, reply)));
      return reply;
    },
  );
}
