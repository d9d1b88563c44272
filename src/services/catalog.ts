/**
 * Read side of the code set: codes and their changes. No HTTP, no SQL: the
 * callers hand in validated queries and get raw pages back.
 */
import { holdsKeyShape } from '../domain/key-shape.ts';
import { ApiError } from '../errors.ts';
import type { ChangeKey, ChangePageQuery, CodePageQuery, RawPage, Store } from '../store/store.ts';

export async function listCodes(store: Store, query: CodePageQuery): Promise<RawPage<string>> {
  return store.pageCodes(query);
}

export async function getCode(store: Store, id: string): Promise<string> {
  const json = await store.codeJson(id);
  if (json === null) throw codeNotFound(id);
  return json;
}

export async function listChanges(store: Store, query: ChangePageQuery): Promise<RawPage<ChangeKey>> {
  return store.pageChanges(query);
}

/** Changes of one code: an unknown code is a 404, a known one may have none. */
export async function listCodeChanges(store: Store, query: ChangePageQuery & { codeId: string }): Promise<RawPage<ChangeKey>> {
  if (!(await store.codeExists(query.codeId))) throw codeNotFound(query.codeId);
  return store.pageChanges(query);
}

function codeNotFound(id: string): ApiError {
  // A key sent as a code id is not echoed back: an error body may be logged wherever the client logs it.
  const shown = holdsKeyShape(id) ? 'No code with this id (it has the shape of an API key: never put a key in a URL)' : `No code with id "${id}"`;
  return new ApiError('code_not_found', `${shown}. Ids have the form {system}:{code}, e.g. iso4217:EUR.`, {
    param: 'code_id',
  });
}
