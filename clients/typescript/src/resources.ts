/**
 * The client's methods, one per operation, grouped by resource. Each is a
 * line over the shared core: `one` for a single answer, `list` for a
 * collection (a PageRequest), both taking the operation's method and path
 * from OPERATIONS. A call's parameters are the API's query parameters plus
 * the call's own options (signal, timeoutMs, maxRetries), which are not sent.
 */
import { ChangeFeed, type FollowOptions } from './follow.ts';
import { OPERATIONS, operationPath } from './operations.ts';
import { PageRequest, type PageEnvelope } from './page.ts';
import type { QueryValue, Transport } from './transport.ts';
import type {
  BatchParams,
  BatchResult,
  Change,
  Code,
  HierarchyParams,
  GetCodeParams,
  ItemOf,
  ListChangesParams,
  ListCodeChangesParams,
  ListCodesParams,
  GetSystemParams,
  ListReleasesParams,
  ListSystemsParams,
  Release,
  SearchCodesParams,
  System,
  OperationId,
  ParamsOf,
  RequestOptions,
  ResponseOf,
} from './types.ts';

type Query = Record<string, QueryValue>;

/** The most ids POST /v1/codes/batch takes in one request. */
const BATCH_MAX_IDS = 200;

/** The query to send, and the options of the call. */
function split(params: RequestOptions | undefined): { query: Query; options: RequestOptions } {
  const { signal, timeoutMs, maxRetries, ...query } = params ?? {};
  return { query: query, options: { signal, timeoutMs, maxRetries } };
}

export class Core {
  readonly transport: Transport;
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** An operation answered by one value; `body` is sent as JSON. */
  one<Op extends OperationId>(operation: Op, pathParams: Record<string, string>, params: ParamsOf<Op> | undefined, body?: unknown): Promise<ResponseOf<Op>> {
    const { query, options } = split(params);
    return this.transport.request<ResponseOf<Op>>({ method: OPERATIONS[operation].method, path: operationPath(operation, pathParams), query, body }, options);
  }

  /** A collection operation: each page is the same request with the next cursor. */
  list<Op extends OperationId>(operation: Op, pathParams: Record<string, string>, params: ParamsOf<Op> | undefined): PageRequest<ItemOf<Op>> {
    const { method } = OPERATIONS[operation];
    const path = operationPath(operation, pathParams);
    const { query, options } = split(params);
    const first = typeof query.cursor === 'string' ? query.cursor : undefined;
    return new PageRequest<ItemOf<Op>>(
      (cursor) => this.transport.request<PageEnvelope<ItemOf<Op>>>({ method, path, query: { ...query, cursor } }, options),
      first,
    );
  }
}

export class Codes {
  readonly #core: Core;
  constructor(core: Core) {
    this.#core = core;
  }

  /** GET /v1/codes/{code_id}: one code; CodeNotFoundError when there is none. */
  get(codeId: string, params?: GetCodeParams): Promise<Code> {
    return this.#core.one('getCode', { code_id: codeId }, params);
  }

  /** GET /v1/codes: codes ordered by id. Await for one page, or `for await` over all of them. */
  list(params?: ListCodesParams): PageRequest<Code> {
    return this.#core.list('listCodes', {}, params);
  }

  /**
   * GET /v1/codes/search: codes matching q (case and accents ignored, words as typed): the code
   * equal to q first, then codes starting with it, displays starting with it, and other matches.
   */
  search(q: string, params?: SearchCodesParams): PageRequest<Code> {
    return this.#core.list('searchCodes', {}, { ...params, q });
  }

  /**
   * POST /v1/codes/batch: up to 200 codes in one request (one request toward
   * the limits), optionally `as_of` a date. Records come in the order of `ids`.
   * More ids are refused here: the service would refuse them too, and a body
   * of megabytes is cut off while it is still being sent, which looks like a
   * connection failure and would be retried, the whole upload each time.
   */
  batch(ids: string[], params?: BatchParams): Promise<BatchResult> {
    if (Array.isArray(ids) && ids.length > BATCH_MAX_IDS) {
      throw new TypeError(`codes.batch takes at most ${BATCH_MAX_IDS} ids per request; got ${ids.length}. Send them in slices of ${BATCH_MAX_IDS}.`);
    }
    const { as_of, ...options } = params ?? {};
    return this.#core.one('batchGetCodes', {}, options, as_of === undefined ? { ids } : { ids, as_of });
  }

  /** GET /v1/codes/{code_id}/children: the codes naming this one among their parents, by id. */
  children(codeId: string, params?: HierarchyParams): PageRequest<Code> {
    return this.#core.list('listChildren', { code_id: codeId }, params);
  }

  /** GET /v1/codes/{code_id}/descendants: every code below this one, each once, by id. */
  descendants(codeId: string, params?: HierarchyParams): PageRequest<Code> {
    return this.#core.list('listDescendants', { code_id: codeId }, params);
  }

  /** GET /v1/codes/{code_id}/ancestors: every code above this one, nearest first. */
  ancestors(codeId: string, params?: HierarchyParams): PageRequest<Code> {
    return this.#core.list('listAncestors', { code_id: codeId }, params);
  }

  /** GET /v1/codes/{code_id}/changes: what happened to one code, in feed order. */
  changes(codeId: string, params?: ListCodeChangesParams): PageRequest<Change> {
    return this.#core.list('listCodeChanges', { code_id: codeId }, params);
  }
}

export class Changes {
  readonly #core: Core;
  constructor(core: Core) {
    this.#core = core;
  }

  /** GET /v1/changes: every change, ordered by (effective_date, id). */
  list(params?: ListChangesParams): PageRequest<Change> {
    return this.#core.list('listChanges', {}, params);
  }

  /**
   * Every change after `since` (or from the start), then each new one as it is
   * recorded, polling with backoff until `signal` aborts. Persist `position`
   * to resume after a restart: see the README's "Following changes".
   */
  follow(options: FollowOptions = {}): ChangeFeed {
    return new ChangeFeed((params) => this.#core.list('listChanges', {}, params), options);
  }
}

export class Systems {
  readonly #core: Core;
  constructor(core: Core) {
    this.#core = core;
  }

  /** GET /v1/systems: the code systems, by id. */
  list(params?: ListSystemsParams): PageRequest<System> {
    return this.#core.list('listSystems', {}, params);
  }

  /** GET /v1/systems/{system}: one system; SystemNotFoundError when there is none. */
  get(system: string, params?: GetSystemParams): Promise<System> {
    return this.#core.one('getSystem', { system }, params);
  }

  /** GET /v1/systems/{system}/releases: its releases in import order. */
  releases(system: string, params?: ListReleasesParams): PageRequest<Release> {
    return this.#core.list('listReleases', { system }, params);
  }

  /** GET /v1/systems/{system}/roots: the codes of the system without parents, by id. */
  roots(system: string, params?: HierarchyParams): PageRequest<Code> {
    return this.#core.list('listSystemRoots', { system }, params);
  }
}
