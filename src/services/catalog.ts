/**
 * Read side of the code set: codes and their changes. No HTTP, no SQL: the
 * callers hand in validated queries and get raw pages back.
 */
import { holdsKeyShape } from '../domain/key-shape.ts';
import type { JsonText } from '../domain/json-text.ts';
import type { ChangeRecord, CodeRecord } from '../domain/records.ts';
import { ApiError } from '../errors.ts';
import type { ChangeKey, ChangePageQuery, CodePageQuery, RawPage } from '../domain/pages.ts';
import type { Store } from '../store/store.ts';

/**
 * Keeps what a service derives from the store's rows (a page of systems, a
 * release list) as the JSON it sends, under the same exactness as the store's
 * own reads: the cached catalog's read cache (cached-catalog.ts). A read that
 * throws or finds nothing is not kept.
 */
export interface DerivedReads {
  page<P extends RawPage<unknown>>(key: string, read: () => Promise<P>): Promise<P>;
  text<T>(key: string, read: () => Promise<JsonText<T> | null>): Promise<JsonText<T> | null>;
}

/**
 * Whole answers kept for the HTTP layer under the same exactness as the
 * store's reads (the cached catalog's read cache): a body as it was sent and
 * its entity tag, under a key of the caller's (the request's URL). The service
 * layer neither reads nor makes them; it only vouches that a kept answer was
 * made from reads of the version still current.
 */
export interface KeptAnswers {
  /** The version to keep an answer under, taken before the reads it is made of; drops every answer when the version moved. */
  open(): number;
  /**
   * The body kept under key, in place (copy it before anything else is kept), and its tag; after open(). count
   * false: a look that the cache's hits and misses do not count (a caller that may leave the request to another
   * path, which looks again); it counts what it answers with hit().
   */
  view(key: string, count?: boolean): { bytes: Buffer; tag: string } | undefined;
  hit(): void;
  /** Keeps a copy of body, when version is still current (and it fits, and is let in). */
  keep(key: string, body: Buffer, tag: string, version: number): void;
}

/** What the catalog reads of the store, and where its services keep what they derive (absent: nowhere). */
export type CatalogStore = Pick<Store, 'pageCodes' | 'codeJson' | 'codeExists' | 'pageChanges' | 'searchCodes' | 'systems' | 'navigation'> & {
  readonly derived?: DerivedReads;
  readonly answers?: KeptAnswers;
  /**
   * A record when it can be had without waiting (the read cache holds it, or
   * the store reads in this process), null when there is no such code;
   * undefined when it can only be read with codeJson().
   */
  codeJsonNow?(id: string): JsonText<CodeRecord> | null | undefined;
  /**
   * codeJsonNow() for a caller that may leave the request to another path,
   * which reads it again: the look counts nothing and keeps nothing until
   * settle(), which the caller calls only if it answers with the record.
   */
  lookCodeJsonNow?(id: string): CodeLook | undefined;
};

/** A record looked at without counting (CatalogStore.lookCodeJsonNow): json as codeJsonNow() gives it; settle() counts the look and keeps what it read. */
export interface CodeLook {
  json: JsonText<CodeRecord> | null;
  settle(): void;
}

const NOTHING_TO_SETTLE = (): void => undefined;

/** A record looked at for an answer that may be left to another path (see CatalogStore.lookCodeJsonNow); undefined as for getCodeNow(). */
export function lookCodeNow(store: CatalogStore, id: string): CodeLook | undefined {
  if (store.lookCodeJsonNow !== undefined) return store.lookCodeJsonNow(id);
  const json = store.codeJsonNow?.(id);
  return json === undefined ? undefined : { json, settle: NOTHING_TO_SETTLE };
}

export async function listCodes(store: CatalogStore, query: CodePageQuery): Promise<RawPage<string, CodeRecord>> {
  return store.pageCodes(query);
}

export async function getCode(store: CatalogStore, id: string): Promise<JsonText<CodeRecord>> {
  const json = await store.codeJson(id);
  if (json === null) throw codeNotFound(id);
  return json;
}

/** getCode() without a promise, where the store can answer at once (see CatalogStore.codeJsonNow); undefined otherwise. */
export function getCodeNow(store: CatalogStore, id: string): JsonText<CodeRecord> | undefined {
  const json = store.codeJsonNow?.(id);
  if (json === null) throw codeNotFound(id);
  return json;
}

export async function listChanges(store: CatalogStore, query: ChangePageQuery): Promise<RawPage<ChangeKey, ChangeRecord>> {
  return store.pageChanges(query);
}

/** Changes of one code: an unknown code is a 404, a known one may have none. */
export async function listCodeChanges(store: CatalogStore, query: ChangePageQuery & { codeId: string }): Promise<RawPage<ChangeKey, ChangeRecord>> {
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
