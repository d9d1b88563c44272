/**
 * Read side of navigation: the hierarchy around a code, the code set as it
 * stood on a past date, and many codes in one call. No HTTP, no SQL.
 */
import { ApiError } from '../errors.ts';
import type { JsonText } from '../domain/json-text.ts';
import type { AncestorKey, AncestorsQuery, AsOfPageQuery, RelativesQuery, RootsQuery } from '../domain/navigation.ts';
import type { RawPage } from '../domain/pages.ts';
import type { CodeRecord } from '../domain/records.ts';
import type { CatalogStore } from './catalog.ts';
import { systemNotFound } from './systems.ts';

export const BATCH_MAX_IDS = 200;
/** The longest id a batch takes, in characters (Unicode code points). */
export const BATCH_ID_MAX_LENGTH = 1024;

function codeNotFound(id: string, asOf: string | null, existsNow = false): ApiError {
  const message =
    asOf !== null && existsNow
      ? `The code "${id}" did not exist on ${asOf}: it was added by a change effective after that date. Send a later as_of, or none for the code as it is today.`
      : `No code with id "${id}". Ids have the form {system}:{code}, e.g. iso4217:EUR.`;
  return new ApiError('code_not_found', message, { param: 'code_id' });
}

export async function getCodeAsOf(store: CatalogStore, id: string, asOf: string): Promise<JsonText<CodeRecord>> {
  const json = await store.navigation.codeJsonAsOf(id, asOf);
  if (json === null) throw codeNotFound(id, asOf, await store.codeExists(id));
  return json;
}

export async function listCodesAsOf(store: CatalogStore, query: AsOfPageQuery): Promise<RawPage<string, CodeRecord>> {
  return store.navigation.pageCodesAsOf(query);
}

/** An empty page of an unknown code is a 404: a known code may have no relatives. */
async function ofKnownCode<K>(store: CatalogStore, id: string, page: RawPage<K, CodeRecord>): Promise<RawPage<K, CodeRecord>> {
  if (page.count === 0 && !(await store.codeExists(id))) throw codeNotFound(id, null);
  return page;
}

export async function listChildren(store: CatalogStore, query: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
  return ofKnownCode(store, query.id, await store.navigation.pageChildren(query));
}

export async function listDescendants(store: CatalogStore, query: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
  return ofKnownCode(store, query.id, await store.navigation.pageDescendants(query));
}

export async function listAncestors(store: CatalogStore, query: AncestorsQuery): Promise<RawPage<AncestorKey, CodeRecord>> {
  return ofKnownCode(store, query.id, await store.navigation.pageAncestors(query));
}

export async function listRoots(store: CatalogStore, query: RootsQuery): Promise<RawPage<string, CodeRecord>> {
  const page = await store.navigation.pageRoots(query);
  if (page.count === 0 && !(await store.navigation.systemExists(query.system))) throw systemNotFound(query.system);
  return page;
}

/**
 * `{"object":"batch","data":[…],"not_found":[…]}`: the records found, in the
 * order asked and each once, then the ids not found in the same order.
 */
export interface BatchJson {
  object: 'batch';
  data: CodeRecord[];
  not_found: string[];
}

const BATCH_HEAD = Buffer.from('{"object":"batch","data":[');
const BATCH_MIDDLE = Buffer.from('],"not_found":');
const BATCH_TAIL = Buffer.from('}');

/** The body of a batch answer (a BatchJson), as bytes: the records are not turned into text on the way. */
export async function batchCodes(store: CatalogStore, ids: readonly string[], asOf: string | null): Promise<Buffer> {
  const { json, missing } = await store.navigation.codesBatch([...new Set(ids)], asOf);
  return Buffer.concat([BATCH_HEAD, json, BATCH_MIDDLE, Buffer.from(JSON.stringify(missing)), BATCH_TAIL]);
}
