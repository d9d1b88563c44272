/**
 * The navigation reads with the same exact cache in front as the plain reads
 * (see cached-catalog.ts): a record as of a date, keyed by the date and the
 * id, so an entry is only ever served for the very query it answered; the
 * whole cache is dropped when anything commits (an import writes records,
 * versions and the hierarchy in one transaction). The pages (codes as of a
 * date, children, descendants, ancestors, roots) are kept whole by the HTTP
 * routes (CatalogStore.answers); batches and existence checks go to the store.
 * Also the cache's helpers for a page and a text, which the systems' reads use.
 */
import { jsonItems, jsonText, type JsonText } from '../domain/json-text.ts';
import type { AncestorKey, AncestorsQuery, AsOfPageQuery, BatchRecords, RelativesQuery, RootsQuery } from '../domain/navigation.ts';
import type { RawPage } from '../domain/pages.ts';
import type { CodeRecord } from '../domain/records.ts';
import type { CatalogStore } from './catalog.ts';
import type { ReadCache } from './read-cache.ts';

type Navigation = CatalogStore['navigation'];
/** What a page keeps beside its text; a record keeps nothing (undefined). */
export type PageMeta = Omit<RawPage<unknown>, 'json'>;
/** What an entry keeps beside its bytes: a page's meta, a kept answer's entity tag (KeptAnswers), nothing for a text. */
export type KeptMeta = PageMeta | string | undefined;

/**
 * Separates the parts of a cache key; never inside a validated parameter. Every
 * key of the read cache is built with it (here, cached-catalog.ts and
 * systems.ts), after a one-letter prefix of its kind: r (records), a (a
 * record as of a date), w (a page's whole answer, under its URL), y Y R
 * (systems).
 */
export const SEP = '\u0000';

export class CachedNavigation implements Navigation {
  private readonly store: Navigation;
  private readonly cache: ReadCache<KeptMeta>;

  constructor(store: Navigation, cache: ReadCache<KeptMeta>) {
    this.store = store;
    this.cache = cache;
  }

  codeJsonAsOf(id: string, asOf: string): Promise<JsonText<CodeRecord> | null> {
    // Not found is not kept: its 404 asks the store whether the code exists now.
    return cachedText(this.cache, `a${SEP}${asOf}${SEP}${id}`, () => this.store.codeJsonAsOf(id, asOf));
  }

  /*
   * The pages are not cached here: their only callers are the HTTP routes, which keep the whole answer
   * (CatalogStore.answers, kept-answers.ts); a page kept here as well would hold the same records twice.
   */
  pageCodesAsOf(q: AsOfPageQuery): Promise<RawPage<string, CodeRecord>> {
    return this.store.pageCodesAsOf(q);
  }

  pageChildren(q: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
    return this.store.pageChildren(q);
  }

  pageDescendants(q: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
    return this.store.pageDescendants(q);
  }

  pageAncestors(q: AncestorsQuery): Promise<RawPage<AncestorKey, CodeRecord>> {
    return this.store.pageAncestors(q);
  }

  pageRoots(q: RootsQuery): Promise<RawPage<string, CodeRecord>> {
    return this.store.pageRoots(q);
  }

  systemExists(system: string): Promise<boolean> {
    return this.store.systemExists(system);
  }

  codesBatch(ids: readonly string[], asOf: string | null): Promise<BatchRecords> {
    return this.store.codesBatch(ids, asOf);
  }
}

/** A page through the cache: served from it when it holds the key, else read and kept under the version the read began in. */
export async function cachedPage<P extends RawPage<unknown>>(cache: ReadCache<KeptMeta>, key: string, read: () => Promise<P>): Promise<P> {
  const version = cache.open();
  const cached = cache.getBytes(key);
  // Each kind of page key holds only its own kind of page's meta (answer keys, w, hold a tag).
  if (cached !== undefined) return { ...(cached.meta as Omit<P, 'json'>), json: jsonItems(cached.bytes) } as P;
  const page = await read();
  const { json, ...meta } = page;
  cache.set(key, json, meta, version);
  return page;
}

/** A record's text through the cache, like cachedPage; null (not found) is not kept. */
export async function cachedText<T>(cache: ReadCache<KeptMeta>, key: string, read: () => Promise<JsonText<T> | null>): Promise<JsonText<T> | null> {
  const version = cache.open();
  const cached = cache.get(key);
  if (cached !== undefined) return jsonText<T>(cached.text);
  const json = await read();
  if (json !== null) cache.set(key, json, undefined, version);
  return json;
}
