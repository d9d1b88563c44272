/**
 * Finds API keys by the SHA-256 of the presented key, with an in-process cache
 * that is dropped before any request once another process has committed to the
 * database (the store's external write version, checked once per freshness
 * window; every writer waits that window out before it returns), and on every
 * in-process change. So a revocation, wherever it was made, holds for the next
 * request sent after it returned.
 *
 * Beside the lookups, it keeps the first 64 bits of every stored key's hash
 * (up to 100 000 keys), read once per change: a presented key whose hash
 * matches none is refused without a query. A flood of made-up keys then costs
 * a hash and a set lookup each, not a database read (it was one per key, the
 * 10 000 cached answers of unknown keys being too few for a flood of them).
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
/** Keys beyond this many are not kept as hash prefixes (~40 bytes each). */
const KNOWN_MAX = 100_000;
/** 64 bits of a hash: a prefix no stored key has is a key no one holds; one that matches is looked up. */
const KNOWN_PREFIX = 16;

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
  /** Moves with the version and with every in-process change: what was read before it moved is not kept after. */
  private generation = 0;
  /**
   * Without a validator: the first KNOWN_PREFIX characters of every stored key's hash,
   * so that a key that is none of them is refused with no query; null while there
   * are more keys than KNOWN_MAX (then every unknown key is looked up), undefined
   * until read for the current generation.
   */
  private known: Set<string> | null | undefined;
  private loadingKnown: Promise<void> | null = null;

  constructor(store: Store, options: { validator?: AccessValidator } = {}) {
    this.store = store;
    this.validator = options.validator ?? null;
  }

  /**
   * The lookup this cache holds for the key, without a promise (null: no such
   * key); undefined when it holds none, or when lookupVersioned() must run
   * instead (a process committed meanwhile, or a validator must vouch for the lookup).
   */
  cached(key: string): KeyLookup | null | undefined {
    if (this.validator !== null || this.store.externalWriteVersion() !== this.version) return undefined;
    const hash = hashSecret(key);
    const found = this.entries.get(hash);
    if (found !== undefined) return found;
    return this.surelyUnknown(hash) ? null : undefined;
  }

  async lookup(key: string): Promise<KeyLookup | null> {
    return (await this.lookupVersioned(key)).found;
  }

  async lookupVersioned(key: string): Promise<VersionedLookup> {
    const version = this.validator ? this.validator.accessVersion() : this.store.externalWriteVersion();
    if (version !== this.version) {
      // NaN never equals itself: a backend that cannot tell caches nothing.
      this.forget();
      this.version = version;
    }
    const accessVersion = this.validator ? version : null;
    const hash = hashSecret(key);
    const cached = this.entries.get(hash);
    if (cached !== undefined) return { found: cached, accessVersion };
    const generation = this.generation;
    if (!this.validator && !Number.isNaN(version)) {
      if (this.known === undefined) await this.readKnown();
      // A hash no stored key has: no key, and nothing to cache (the set answers as fast).
      if (this.surelyUnknown(hash)) return { found: null, accessVersion };
    }
    const found = await this.store.access.findKeyByHash(hash);
    // Only while nothing changed: a lookup that began before a change must not be cached after it.
    if (!Number.isNaN(version) && this.generation === generation && (found !== null || !this.validator)) {
      // Unknown keys are cached too (the 401 path stays cheap), within a bound.
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, found);
    }
    return { found, accessVersion };
  }

  /** Whether no stored key has this hash: false also while the prefixes are not read, or too many to keep. */
  private surelyUnknown(hash: string): boolean {
    return this.known?.has(hash.slice(0, KNOWN_PREFIX)) === false;
  }

  /** Reads the stored keys' hash prefixes once per generation (concurrent lookups share the read). */
  private readKnown(): Promise<void> {
    if (this.loadingKnown === null) {
      const generation = this.generation;
      this.loadingKnown = this.store.access
        .keyHashes(KNOWN_MAX)
        .then(
          (hashes) => {
            if (this.generation === generation) this.known = hashes === null ? null : new Set(hashes.map((h) => h.slice(0, KNOWN_PREFIX)));
          },
          // Unreadable now: every key is looked up, as without the set.
          () => undefined,
        )
        .finally(() => {
          this.loadingKnown = null;
        });
    }
    return this.loadingKnown;
  }

  private forget(): void {
    this.entries.clear();
    this.known = undefined;
    this.generation++;
  }

  /** After an in-process change to keys, organisations or plans. */
  invalidate(): void {
    this.forget();
  }
}
