/**
 * The systems and releases reads through the same exact cache as the code
 * reads (see cached-catalog.ts): a handful of small rows that every client
 * asks for, which the store answered at about three times the cost of a
 * record under load (a table read per request, its pages pushed out of
 * SQLite's cache by the records). The rows are kept as their JSON and parsed
 * back on a hit; the whole cache is dropped when anything commits, as for
 * every other entry. An unknown system is not kept: its id is the caller's.
 */
import type { SystemsStore } from '../store/systems-store.ts';
import type { ReadCache } from './read-cache.ts';
import { SEP, type PageMeta } from './cached-navigation.ts';

export class CachedSystems implements SystemsStore {
  private readonly store: SystemsStore;
  private readonly cache: ReadCache<PageMeta | undefined>;

  constructor(store: SystemsStore, cache: ReadCache<PageMeta | undefined>) {
    this.store = store;
    this.cache = cache;
  }

  pageSystems(after: string | null, limit: number): ReturnType<SystemsStore['pageSystems']> {
    return this.rows(`y${SEP}${after ?? ''}${SEP}${limit}`, () => this.store.pageSystems(after, limit));
  }

  getSystem(id: string): ReturnType<SystemsStore['getSystem']> {
    return this.rows(`Y${SEP}${id}`, () => this.store.getSystem(id));
  }

  pageReleases(system: string, afterSeq: number | null, limit: number): ReturnType<SystemsStore['pageReleases']> {
    return this.rows(`R${SEP}${system}${SEP}${afterSeq ?? 0}${SEP}${limit}`, () => this.store.pageReleases(system, afterSeq, limit));
  }

  /** A write of this process does not move the freshness version: the cache is dropped here. */
  async updateSystem(...args: Parameters<SystemsStore['updateSystem']>): ReturnType<SystemsStore['updateSystem']> {
    try {
      return await this.store.updateSystem(...args);
    } finally {
      this.cache.clear();
    }
  }

  private async rows<T>(key: string, read: () => Promise<T>): Promise<T> {
    const version = this.cache.open();
    const cached = this.cache.get(key);
    if (cached !== undefined) return JSON.parse(cached.text) as T;
    const found = await read();
    if (found !== null) this.cache.set(key, JSON.stringify(found), undefined, version);
    return found;
  }
}
