/**
 * Finds API keys by the SHA-256 of the presented key, with an in-process cache
 * that is dropped before any request once another process has committed to the
 * database (the store's external write version, checked once per freshness
 * window; every writer waits that window out before it returns), and on every
 * in-process change. So a revocation, wherever it was made, holds for the next
 * request sent after it returned.
 *
 * Scaled out, no process can tell locally that another one committed. There
 * the cache is validated by the limiter instead (an AccessValidator, the Redis
 * limiter): each lookup carries the validator's version, and the limiter's one
 * round trip per request refuses a lookup made under an older one (the
 * request then looks the key up afresh). Unknown keys are not cached then:
 * a 401 never reaches the limiter to be checked.
 */
import type { KeyLookup } from '../../store/access-store.ts';

export type { KeyLookup };
import type { Store } from '../../store/store.ts';
import { hashSecret } from './api-keys.ts';

const MAX_ENTRIES = 10_000;

/** A limiter that can vouch for cached lookups (see Limiter's AccessCheck). */
export interface AccessValidator {
  /** NaN while it cannot vouch for anything: nothing is cached then. */
  accessVersion(): number;
}

export interface VersionedLookup {
  found: KeyLookup | null;
  /** The validator's version the lookup holds for; null without a validator (nothing to check). */
  accessVersion: number | null;
}

export class KeyCache {
  private readonly store: Store;
  private readonly validator: AccessValidator | null;
  private readonly entries = new Map<string, KeyLookup | null>();
  private version = Number.NaN;

  constructor(store: Store, options: { validator?: AccessValidator } = {}) {
    this.store = store;
    this.validator = options.validator ?? null;
  }

  /**
   * The lookup this cache holds for the key, without a promise: undefined when
   * it holds none, or when lookupVersioned() must run instead (a process
   * committed meanwhile, or a validator must vouch for the lookup).
   */
  cached(key: string): KeyLookup | null | undefined {
    if (this.validator !== null || this.store.externalWriteVersion() !== this.version) return undefined;
    return this.entries.get(hashSecret(key));
  }

  async lookup(key: string): Promise<KeyLookup | null> {
    return (await this.lookupVersioned(key)).found;
  }

  async lookupVersioned(key: string): Promise<VersionedLookup> {
    const version = this.validator ? this.validator.accessVersion() : this.store.externalWriteVersion();
    if (version !== this.version) {
      // NaN never equals itself: a backend that cannot tell caches nothing.
      this.entries.clear();
      this.version = version;
    }
    const accessVersion = this.validator ? version : null;
    const hash = hashSecret(key);
    const cached = this.entries.get(hash);
    if (cached !== undefined) return { found: cached, accessVersion };
    const found = await this.store.access.findKeyByHash(hash);
    // Only while the version is unchanged: a lookup that began before a change must not be cached after it.
    if (!Number.isNaN(version) && this.version === version && (found !== null || !this.validator)) {
      // Unknown keys are cached too (the 401 path stays cheap), within a bound.
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, found);
    }
    return { found, accessVersion };
  }

  /** After an in-process change to keys, organisations or plans. */
  invalidate(): void {
    this.entries.clear();
  }
}
