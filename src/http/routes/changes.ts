import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ChangeKey } from '../../domain/pages.ts';
import type { ChangeType } from '../../domain/records.ts';
import { ApiError } from '../../errors.ts';
import { listChanges, listCodeChanges } from '../../services/catalog.ts';
import { effectiveLimit, filterBinding, pageEnvelope, positionAfter, rejectLooseLimit, type Collection } from '../pagination.ts';
import { checkParameterValues } from '../parameter-errors.ts';
import { EXAMPLES } from '../examples.ts';
import { sendAndKeep, sendKeptAnswer } from '../kept-answers.ts';
import { ChangeRecord, ChangesQuery, CodeChangesQuery, CodeIdParams, PageOf, errorResponses, okResponse } from '../schemas.ts';
import { bodyFor, type RouteDeps } from './v1-types.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function changeCollection(name: string): Collection<ChangeKey> {
  return {
    name,
    toSortKey: (key) => [key.effectiveDate, key.id],
    fromSortKey: ([date, id, ...rest]) =>
      typeof date === 'string' && DATE.test(date) && Number.isSafeInteger(id) && rest.length === 0 ? { effectiveDate: date, id: id as number } : null,
  };
}

export const changesCollection = changeCollection('changes');
export const codeChangesCollection = changeCollection('code_changes');

/** An empty range is a mistake, not a question: answering an empty page would hide it. */
function rejectReversedRange(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && from > to) {
    throw new ApiError(
      'invalid_parameter',
      `effective_from (${from}) is after effective_to (${to}), so no change can match. Both dates are inclusive: send an effective_from on or before effective_to.`,
      { param: 'effective_from' },
    );
  }
}

const ORDER = 'Ordered by (effective_date, id): changes sharing an effective date are ordered by id.';

export async function changesRoutes(parent: FastifyInstance, { store, cursors, bodies }: RouteDeps): Promise<void> {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/changes',
    {
      config: { endpoint: 'changes.list' },
      preValidation: [checkParameterValues, rejectLooseLimit],
      schema: {
        operationId: 'listChanges',
        summary: 'List changes',
        description: `Pages through the history of changes of every code. ${ORDER}`,
        tags: ['changes'],
        querystring: ChangesQuery,
        response: { 200: okResponse(PageOf(ChangeRecord, 'A page of changes.'), EXAMPLES.changesPage), ...errorResponses('changes.list') },
      },
    },
    async (request, reply) => {
      const q = request.query;
      rejectReversedRange(q.effective_from, q.effective_to);
      const kept = sendKeptAnswer(store.answers, bodies, request, reply);
      if (kept === null) return reply;
      const binding = filterBinding({
        system: q.system,
        code_id: q.code_id,
        type: q.type,
        effective_from: q.effective_from,
        effective_to: q.effective_to,
        release: q.release,
      });
      const page = await listChanges(store, {
        after: positionAfter(cursors, q.cursor, changesCollection, binding),
        limit: effectiveLimit(q.limit),
        system: q.system ?? null,
        codeId: q.code_id ?? null,
        type: (q.type as ChangeType | undefined) ?? null,
        effectiveFrom: q.effective_from ?? null,
        effectiveTo: q.effective_to ?? null,
        release: q.release ?? null,
      });
      sendAndKeep(store.answers, kept, request, reply, pageEnvelope(page, cursors, changesCollection, binding, bodyFor(bodies, reply)));
      return reply;
    },
  );

  app.get(
    '/codes/:code_id/changes',
    {
      config: { endpoint: 'changes.list' },
      preValidation: [checkParameterValues, rejectLooseLimit],
      schema: {
        operationId: 'listCodeChanges',
        summary: 'List the changes of one code',
        description: ORDER,
        tags: ['changes'],
        params: CodeIdParams,
        querystring: CodeChangesQuery,
        response: { 200: okResponse(PageOf(ChangeRecord, 'A page of changes.'), EXAMPLES.codeChangesPage), ...errorResponses('changes.list', 404) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      rejectReversedRange(q.effective_from, q.effective_to);
      const codeId = request.params.code_id;
      const kept = sendKeptAnswer(store.answers, bodies, request, reply);
      if (kept === null) return reply;
      const binding = filterBinding({
        code_id: codeId,
        type: q.type,
        effective_from: q.effective_from,
        effective_to: q.effective_to,
      });
      const page = await listCodeChanges(store, {
        after: positionAfter(cursors, q.cursor, codeChangesCollection, binding),
        limit: effectiveLimit(q.limit),
        system: null,
        codeId,
        type: (q.type as ChangeType | undefined) ?? null,
        effectiveFrom: q.effective_from ?? null,
        effectiveTo: q.effective_to ?? null,
      });
      sendAndKeep(store.answers, kept, request, reply, pageEnvelope(page, cursors, codeChangesCollection, binding, bodyFor(bodies, reply)));
      return reply;
    },
  );
}
