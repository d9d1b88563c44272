/**
 * The catalog store with an exact cache of its hot reads in front: records by
 * id (GET /v1/codes/{id}) and pages of /v1/codes and /v1/changes, as the same
 * JSON texts the store returns (kept as UTF-8 bytes, see read-cache.ts); the
 * navigation reads (as of a date, and the hierarchy) share the cache through
 * cached-navigation.ts, and the systems and releases services keep their
 * answers in it through `derived` (systems.ts).
 * Only the body read is cached: the access checks, limits, counting and the
 * request log run for every request before the handler gets here. Everything
 * else is the store's.
 */
import type { JsonText } from '../domain/json-text.ts';
import type { ChangeKey, ChangePageQuery, CodePageQuery, RawPage } from '../domain/pages.ts';
import type { ChangeRecord, CodeRecord } from '../domain/records.ts';
import type { CatalogStore, DerivedReads } from './catalog.ts';
import { CachedNavigation, cachedPage, cachedText, cachedTextNow, NONE, SEP, type PageMeta } from './cached-navigation.ts';
import { CachedSystems } from './cached-systems.ts';
import { ReadCache, type ReadCacheStats } from './read-cache.ts';

export class CachedCatalog implements CatalogStore {
  private readonly store: CatalogStore;
  private readonly cache: ReadCache<PageMeta | undefined>;
  readonly systems: CatalogStore['systems'];
  readonly navigation: CatalogStore['navigation'];
  readonly derived: DerivedReads;

  /** version: see ReadCache; maxBytes 0 turns the cache off. */
  constructor(store: CatalogStore, options: { maxBytes: number; version: () => number }) {
    this.store = store;
    this.cache = new ReadCache<PageMeta | undefined>(options.maxBytes, options.maxBytes > 0 ? options.version : () => Number.NaN);
    this.systems = new CachedSystems(store.systems, this.cache);
    this.navigation = new CachedNavigation(store.navigation, this.cache);
    this.derived = {
      page: (key, read) => cachedPage(this.cache, key, read),
      text: (key, read) => cachedText(this.cache, key, read),
    };
  }

  codeJson(id: string): Promise<JsonText<CodeRecord> | null> {
    return cachedText(this.cache, `r${SEP}${id}`, () => this.store.codeJson(id));
  }

  codeJsonNow(id: string): JsonText<CodeRecord> | null | undefined {
    const store = this.store;
    if (store.codeJsonNow === undefined) return undefined;
    return cachedTextNow(this.cache, `r${SEP}${id}`, () => store.codeJsonNow!(id));
  }

  async pageCodes(q: CodePageQuery): Promise<RawPage<string, CodeRecord>> {
    const key = `c${SEP}${q.after ?? NONE}${SEP}${q.limit}${SEP}${q.system ?? NONE}${SEP}${q.status ?? NONE}`;
    return this.page(key, () => this.store.pageCodes(q));
  }

  async pageChanges(q: ChangePageQuery): Promise<RawPage<ChangeKey, ChangeRecord>> {
    const after = q.after === null ? NONE : `${q.after.effectiveDate}${SEP}${q.after.id}`;
    const filters = [q.system, q.codeId, q.type, q.effectiveFrom, q.effectiveTo, q.release ?? null].map((v) => v ?? NONE).join(SEP);
    return this.page(`h${SEP}${after}${SEP}${q.limit}${SEP}${filters}`, () => this.store.pageChanges(q));
  }

  codeExists(id: string): Promise<boolean> {
    return this.store.codeExists(id);
  }

  searchCodes(...args: Parameters<CatalogStore['searchCodes']>): ReturnType<CatalogStore['searchCodes']> {
    return this.store.searchCodes(...args);
  }

  stats(): ReadCacheStats {
    return this.cache.stats();
  }

  private page<P extends RawPage<unknown>>(key: string, read: () => Promise<P>): Promise<P> {
    return cachedPage(this.cache, key, read);
  }
}
