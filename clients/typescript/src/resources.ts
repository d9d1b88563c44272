/**
 * The client's methods, one per operation, grouped by resource. Each is a
 * line over the shared core: `one` for a single answer, `list` for a
 * collection (a PageRequest), both taking the operation's id from
 * OPERATIONS.
 */
import { ChangeFeed, type FollowOptions } from './follow.ts';
import { OPERATIONS, operationPath } from './operations.ts';
import { PageRequest, type PageEnvelope } from './page.ts';
import type { QueryValue, Transport } from './transport.ts';
import type {
  Change,
  Code,
  ItemOf,
  ListChangesParams,
  ListCodeChangesParams,
  ListCodesParams,
  OperationId,
  QueryOf,
  RequestOptions,
  ResponseOf,
} from './types.ts';

type Query = Record<string, QueryValue>;

export class Core {
  readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** An operation answered by one value. */
  one<Op extends OperationId>(operation: Op, pathParams: Record<string, string>, query: Query | undefined, options: RequestOptions | undefined): Promise<ResponseOf<Op>> {
    const { method } = OPERATIONS[operation];
    return this.transport.request<ResponseOf<Op>>({ method, path: operationPath(operation, pathParams), query }, options);
  }

  /** A collection operation: each page is the same request with the next cursor. */
  list<Op extends OperationId>(operation: Op, pathParams: Record<string, string>, params: (QueryOf<Op> & { cursor?: string }) | undefined, options: RequestOptions | undefined): PageRequest<ItemOf<Op>> {
    const { method } = OPERATIONS[operation];
    const path = operationPath(operation, pathParams);
    const query: Query = { ...(params as Query | undefined) };
    return new PageRequest<ItemOf<Op>>(
      (cursor) => this.transport.request<PageEnvelope<ItemOf<Op>>>({ method, path, query: { ...query, cursor } }, options),
      params?.cursor,
    );
  }
}

export class Codes {
  readonly #core: Core;
  constructor(core: Core) {
    this.#core = core;
  }

  /** GET /v1/codes/{code_id}: one code; CodeNotFoundError when there is none. */
  get(codeId: string, options?: RequestOptions): Promise<Code> {
    return this.#core.one('getCode', { code_id: codeId }, undefined, options);
  }

  /** GET /v1/codes: codes ordered by id. Await for one page, or `for await` over all of them. */
  list(params?: ListCodesParams, options?: RequestOptions): PageRequest<Code> {
    return this.#core.list('listCodes', {}, params, options);
  }

  /** GET /v1/codes/{code_id}/changes: what happened to one code, in feed order. */
  changes(codeId: string, params?: ListCodeChangesParams, options?: RequestOptions): PageRequest<Change> {
    return this.#core.list('listCodeChanges', { code_id: codeId }, params, options);
  }
}

export class Changes {
  readonly #core: Core;
  constructor(core: Core) {
    this.#core = core;
  }

  /** GET /v1/changes: every change, ordered by (effective_date, id). */
  list(params?: ListChangesParams, options?: RequestOptions): PageRequest<Change> {
    return this.#core.list('listChanges', {}, params, options);
  }

  /**
   * Every change after `since` (or from the start), then each new one as it is
   * recorded, polling with backoff until `signal` aborts. Persist `position`
   * to resume after a restart: see the README's "Following changes".
   */
  follow(options: FollowOptions = {}): ChangeFeed {
    return new ChangeFeed((query, requestOptions) => this.#core.transport.request({ method: 'GET', path: operationPath('listChanges'), query: query as Query }, requestOptions), options);
  }
}
