/**
 * The catalog store with an exact cache of its hot reads in front: records by
 * id (GET /v1/codes/{id}), and the whole answers of the page routes that the
 * HTTP layer keeps in it (`answers`: a page's body as sent, with its tag, so
 * that asking for it again costs no query, no cursor and no digest); the
 * record as of a date shares the cache through cached-navigation.ts, and the
 * systems and releases services keep their answers in it through `derived`
 * (systems.ts). All as UTF-8 bytes (see read-cache.ts).
 * Only the body read is cached: the access checks, limits, counting and the
 * request log run for every request before the handler gets here. Everything
 * else is the store's.
 */
import { jsonText, type JsonText } from '../domain/json-text.ts';
import type { ChangeKey, ChangePageQuery, CodePageQuery, RawPage } from '../domain/pages.ts';
import type { ChangeRecord, CodeRecord } from '../domain/records.ts';
import type { CatalogStore, CodeLook, DerivedReads, KeptAnswers } from './catalog.ts';
import { CachedNavigation, cachedPage, cachedText, SEP, type KeptMeta } from './cached-navigation.ts';
import { CachedSystems } from './cached-systems.ts';
import { ReadCache, type ReadCacheStats } from './read-cache.ts';

export class CachedCatalog implements CatalogStore {
  private readonly store: CatalogStore;
  private readonly cache: ReadCache<KeptMeta>;
  readonly systems: CatalogStore['systems'];
  readonly navigation: CatalogStore['navigation'];
  readonly derived: DerivedReads;

  /** version: see ReadCache; maxBytes 0 turns the cache off. */
  constructor(store: CatalogStore, options: { maxBytes: number; version: () => number }) {
    this.store = store;
    this.cache = new ReadCache<KeptMeta>(options.maxBytes, options.maxBytes > 0 ? options.version : () => Number.NaN);
    this.systems = new CachedSystems(store.systems, this.cache);
    this.navigation = new CachedNavigation(store.navigation, this.cache);
    this.derived = {
      page: (key, read) => cachedPage(this.cache, key, read),
      text: (key, read) => cachedText(this.cache, key, read),
    };
  }

  codeJson(id: string): Promise<JsonText<CodeRecord> | null> {
    return cachedText(this.cache, recordKey(id), () => this.store.codeJson(id));
  }

  codeJsonNow(id: string): JsonText<CodeRecord> | null | undefined {
    const look = this.lookCodeJsonNow(id);
    look?.settle();
    return look?.json;
  }

  lookCodeJsonNow(id: string): CodeLook | undefined {
    const store = this.store;
    if (store.codeJsonNow === undefined) return undefined;
    const key = recordKey(id);
    const version = this.cache.open();
    const cached = this.cache.get(key, false);
    if (cached !== undefined) return { json: jsonText<CodeRecord>(cached.text), settle: () => this.cache.hit() };
    const json = store.codeJsonNow(id);
    if (json === undefined) return undefined;
    return {
      json,
      settle: () => {
        this.cache.miss();
        // Not found is not kept: its 404 asks the store again.
        if (json !== null) this.cache.set(key, json, undefined, version);
      },
    };
  }

  /**
   * Not cached here: the only callers are the HTTP routes, which keep the whole answer (answers); a page kept here as
   * well would hold the same records twice.
   */
  pageCodes(q: CodePageQuery): Promise<RawPage<string, CodeRecord>> {
    return this.store.pageCodes(q);
  }

  pageChanges(q: ChangePageQuery): Promise<RawPage<ChangeKey, ChangeRecord>> {
    return this.store.pageChanges(q);
  }

  codeExists(id: string): Promise<boolean> {
    return this.store.codeExists(id);
  }

  searchCodes(...args: Parameters<CatalogStore['searchCodes']>): ReturnType<CatalogStore['searchCodes']> {
    return this.store.searchCodes(...args);
  }

  readonly answers: KeptAnswers = {
    open: () => this.cache.open(),
    view: (key, count = true) => {
      const found = this.cache.view(`w${SEP}${key}`, count);
      // Only answer keys (w) hold a tag.
      return found === undefined ? undefined : { bytes: found.bytes, tag: found.meta as string };
    },
    keep: (key, body, tag, version) => this.cache.set(`w${SEP}${key}`, body, tag, version),
    hit: () => this.cache.hit(),
  };

  stats(): ReadCacheStats {
    return this.cache.stats();
  }
}

/** A record's key in the read cache. */
function recordKey(id: string): string {
  return `r${SEP}${id}`;
}
