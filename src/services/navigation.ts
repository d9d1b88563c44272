/**
 * Read side of navigation: the hierarchy around a code, the code set as it
 * stood on a past date, and many codes in one call. No HTTP, no SQL.
 */
import { ApiError } from '../errors.ts';
import type { AncestorKey, AncestorsQuery, AsOfPageQuery, RelativesQuery, RootsQuery } from '../store/navigation-store.ts';
import type { RawPage, Store } from '../store/store.ts';

export const BATCH_MAX_IDS = 200;

function codeNotFound(id: string, asOf: string | null, existsNow = false): ApiError {
  const message = asOf !== null && existsNow
    ? `The code "${id}" did not exist on ${asOf}: it was added by a change effective after that date. Send a later as_of, or none for the code as it is today.`
    : `No code with id "${id}". Ids have the form {system}:{code}, e.g. iso4217:EUR.`;
  return new ApiError('code_not_found', message, { param: 'code_id' });
}

export function systemNotFound(system: string): ApiError {
  return new ApiError('system_not_found', `No system "${system}". GET /v1/codes lists the codes of every system; each id starts with its system.`, { param: 'system' });
}

export async function getCodeAsOf(store: Store, id: string, asOf: string): Promise<string> {
  const json = await store.navigation.codeJsonAsOf(id, asOf);
  if (json === null) throw codeNotFound(id, asOf, await store.codeExists(id));
  return json;
}

export async function listCodesAsOf(store: Store, query: AsOfPageQuery): Promise<RawPage<string>> {
  return store.navigation.pageCodesAsOf(query);
}

/** An empty page of an unknown code is a 404: a known code may have no relatives. */
async function ofKnownCode<K>(store: Store, id: string, page: RawPage<K>): Promise<RawPage<K>> {
  if (page.count === 0 && !(await store.codeExists(id))) throw codeNotFound(id, null);
  return page;
}

export async function listChildren(store: Store, query: RelativesQuery): Promise<RawPage<string>> {
  return ofKnownCode(store, query.id, await store.navigation.pageChildren(query));
}

export async function listDescendants(store: Store, query: RelativesQuery): Promise<RawPage<string>> {
  return ofKnownCode(store, query.id, await store.navigation.pageDescendants(query));
}

export async function listAncestors(store: Store, query: AncestorsQuery): Promise<RawPage<AncestorKey>> {
  return ofKnownCode(store, query.id, await store.navigation.pageAncestors(query));
}

export async function listRoots(store: Store, query: RootsQuery): Promise<RawPage<string>> {
  const page = await store.navigation.pageRoots(query);
  if (page.count === 0 && !(await store.navigation.systemExists(query.system))) throw systemNotFound(query.system);
  return page;
}

/**
 * `{"object":"batch","data":[…],"not_found":[…]}`: the records found, in the
 * order asked and each once, then the ids not found in the same order.
 */
export async function batchCodes(store: Store, ids: readonly string[], asOf: string | null): Promise<string> {
  const unique = [...new Set(ids)];
  const found = await store.navigation.codesJson(unique, asOf);
  const data: string[] = [];
  const missing: string[] = [];
  for (const id of unique) {
    const json = found.get(id);
    if (json === undefined) missing.push(id);
    else data.push(json);
  }
  return `{"object":"batch","data":[${data.join(',')}],"not_found":${JSON.stringify(missing)}}`;
}
