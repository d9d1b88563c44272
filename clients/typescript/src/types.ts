/**
 * The records and parameters of the API, named, all taken from the generated
 * schema: a field or parameter the service adds arrives here by regenerating.
 */
import type { operations } from './schema.ts';

export type OperationId = keyof operations;

type Json<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body of an operation's 200 answer. */
export type ResponseOf<Op extends OperationId> = Json<operations[Op]['responses'][200]>;

/** The query parameters of an operation, as the API names them (none: an empty object). */
export type QueryOf<Op extends OperationId> = [NonNullable<operations[Op]['parameters']['query']>] extends [never]
  ? Record<never, never>
  : NonNullable<operations[Op]['parameters']['query']>;

/** The records of a collection operation's pages. */
export type ItemOf<Op extends OperationId> = ResponseOf<Op> extends { data: (infer Item)[] } ? Item : never;

/** A code record (`GET /v1/codes/{code_id}`, and the items of `GET /v1/codes`). */
export type Code = ResponseOf<'getCode'>;

/** A change record (the items of `GET /v1/changes` and `GET /v1/codes/{code_id}/changes`). */
export type Change = ItemOf<'listChanges'>;

/** A system record (`GET /v1/systems/{system}`, and the items of `GET /v1/systems`). */
export type System = ResponseOf<'getSystem'>;

/** A release record (the items of `GET /v1/systems/{system}/releases`). */
export type Release = ItemOf<'listReleases'>;

export type CodeStatus = Code['status'];
export type ChangeType = Change['type'];

/** The parameters of a call: the API's query parameters, and the options of the call itself. */
export type ParamsOf<Op extends OperationId> = QueryOf<Op> & RequestOptions;

export type GetCodeParams = ParamsOf<'getCode'>;
export type ListCodesParams = ParamsOf<'listCodes'>;
export type ListChangesParams = ParamsOf<'listChanges'>;
export type ListCodeChangesParams = ParamsOf<'listCodeChanges'>;
/** The parameters of a search besides q. */
export type SearchCodesParams = Omit<ParamsOf<'searchCodes'>, 'q'>;
export type ListSystemsParams = ParamsOf<'listSystems'>;
export type GetSystemParams = ParamsOf<'getSystem'>;
export type ListReleasesParams = ParamsOf<'listReleases'>;
/** Parameters of children, descendants, ancestors and roots: `status`, `limit`, `cursor`. */
export type HierarchyParams = ParamsOf<'listChildren'>;
/** `POST /v1/codes/batch`: the records found, in the order asked, and the ids not found. */
export type BatchResult = ResponseOf<'batchGetCodes'>;
/** Options of a batch: `as_of`, and the options of the call. */
export type BatchParams = { as_of?: string } & RequestOptions;

/** The body of every error answer. */
export type ErrorBody = Json<operations['listCodes']['responses'][400]>;

/** The error codes the service's document names. */
export type DocumentedErrorCode = ErrorBody['error']['code'];

/** One page of a collection. */
export interface Page<T> {
  data: T[];
  /** True when further records exist after this page. */
  hasMore: boolean;
  /** Send as `cursor` (with the same parameters) for the next page; undefined on the last page. */
  nextCursor: string | undefined;
}

/** Options of a call, given beside its parameters (they are not sent). */
export interface RequestOptions {
  /** Aborts the call, also while it waits to retry. */
  signal?: AbortSignal;
  /** Time limit of each attempt, in milliseconds (default: the client's); checked as the client's is. */
  timeoutMs?: number;
  /** Retries after a 429, a 503 or a connection failure (default: the client's); checked as the client's is. */
  maxRetries?: number;
}
