/**
 * The systems store behind the cached catalog. Its reads go to the store: the
 * services keep the JSON they make of them in the read cache (DerivedReads,
 * see systems.ts), so a hit costs no parse and no serialisation. What is left
 * here is the write: a change this process makes does not move the freshness
 * version, so the whole cache is dropped when it returns.
 */
import type { SystemsStore } from '../store/systems-store.ts';
import type { ReadCache } from './read-cache.ts';
import type { KeptMeta } from './cached-navigation.ts';

export class CachedSystems implements SystemsStore {
  private readonly store: SystemsStore;
  private readonly cache: ReadCache<KeptMeta>;

  constructor(store: SystemsStore, cache: ReadCache<KeptMeta>) {
    this.store = store;
    this.cache = cache;
  }

  pageSystems(...args: Parameters<SystemsStore['pageSystems']>): ReturnType<SystemsStore['pageSystems']> {
    return this.store.pageSystems(...args);
  }

  getSystem(id: string): ReturnType<SystemsStore['getSystem']> {
    return this.store.getSystem(id);
  }

  pageReleases(...args: Parameters<SystemsStore['pageReleases']>): ReturnType<SystemsStore['pageReleases']> {
    return this.store.pageReleases(...args);
  }

  async updateSystem(...args: Parameters<SystemsStore['updateSystem']>): ReturnType<SystemsStore['updateSystem']> {
    try {
      return await this.store.updateSystem(...args);
    } finally {
      this.cache.clear();
    }
  }
}
