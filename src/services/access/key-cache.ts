/**
 * Finds API keys by the SHA-256 of the presented key, with an in-process cache
 * that is dropped before any request once another process has committed to the
 * database (the store's external write version), and on every in-process
 * change. So a revocation, wherever it was made, holds for the next request.
 */
import type { KeyLookup } from '../../store/access-store.ts';
import type { Store } from '../../store/store.ts';
import { hashKey } from './api-keys.ts';

const MAX_ENTRIES = 10_000;

export class KeyCache {
  private readonly store: Store;
  private readonly entries = new Map<string, KeyLookup | null>();
  private version = Number.NaN;

  constructor(store: Store) {
    this.store = store;
  }

  async lookup(key: string): Promise<KeyLookup | null> {
    const version = this.store.externalWriteVersion();
    if (version !== this.version) {
      // NaN never equals itself: a backend that cannot tell caches nothing.
      this.entries.clear();
      this.version = version;
    }
    const hash = hashKey(key);
    const cached = this.entries.get(hash);
    if (cached !== undefined) return cached;
    const found = await this.store.access.findKeyByHash(hash);
    if (!Number.isNaN(version)) {
      // Unknown keys are cached too (the 401 path stays cheap), within a bound.
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, found);
    }
    return found;
  }

  /** After an in-process change to keys, organisations or plans. */
  invalidate(): void {
    this.entries.clear();
  }
}
