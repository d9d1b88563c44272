/**
 * The navigation reads with the same exact cache in front as the plain reads
 * (see cached-catalog.ts): a record as of a date, pages of codes as of a date,
 * and the hierarchy pages (children, descendants, ancestors, roots). Each is
 * keyed by every parameter that shapes its answer, the date included, so an
 * entry is only ever served for the very query it answered; the whole cache is
 * dropped when anything commits (an import writes records, versions and the
 * hierarchy in one transaction). Batches and existence checks go to the store.
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
 * systems.ts), after a one-letter prefix of its kind: r c h (records,
 * code and change pages), a A k d n o (as of, hierarchy), y Y R (systems).
 */
export const SEP = '\u0000';
/** Stands for an absent filter, apart from any value. */
export const NONE = '\u0001';

const opt = (value: string | null): string => value ?? NONE;

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

  pageCodesAsOf(q: AsOfPageQuery): Promise<RawPage<string, CodeRecord>> {
    const key = `A${SEP}${q.asOf}${SEP}${opt(q.after)}${SEP}${q.limit}${SEP}${opt(q.system)}${SEP}${opt(q.status)}`;
    return this.page(key, () => this.store.pageCodesAsOf(q));
  }

  pageChildren(q: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
    return this.page(`k${SEP}${relatives(q)}`, () => this.store.pageChildren(q));
  }

  pageDescendants(q: RelativesQuery): Promise<RawPage<string, CodeRecord>> {
    return this.page(`d${SEP}${relatives(q)}`, () => this.store.pageDescendants(q));
  }

  pageAncestors(q: AncestorsQuery): Promise<RawPage<AncestorKey, CodeRecord>> {
    const after = q.after === null ? NONE : `${q.after.distance}${SEP}${q.after.id}`;
    return this.page(`n${SEP}${q.id}${SEP}${after}${SEP}${q.limit}${SEP}${opt(q.status)}`, () => this.store.pageAncestors(q));
  }

  pageRoots(q: RootsQuery): Promise<RawPage<string, CodeRecord>> {
    return this.page(`o${SEP}${q.system}${SEP}${opt(q.after)}${SEP}${q.limit}${SEP}${opt(q.status)}`, () => this.store.pageRoots(q));
  }

  systemExists(system: string): Promise<boolean> {
    return this.store.systemExists(system);
  }

  codesBatch(ids: readonly string[], asOf: string | null): Promise<BatchRecords> {
    return this.store.codesBatch(ids, asOf);
  }

  private page<P extends RawPage<unknown>>(key: string, read: () => Promise<P>): Promise<P> {
    return cachedPage(this.cache, key, read);
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

/** cachedText() without a promise, for a read that answers at once (undefined: it cannot, and neither can this). */
export function cachedTextNow<T>(cache: ReadCache<KeptMeta>, key: string, read: () => JsonText<T> | null | undefined): JsonText<T> | null | undefined {
  const version = cache.open();
  const cached = cache.get(key);
  if (cached !== undefined) return jsonText<T>(cached.text);
  const json = read();
  if (json !== null && json !== undefined) cache.set(key, json, undefined, version);
  return json;
}

function relatives(q: RelativesQuery): string {
  return `${q.id}${SEP}${opt(q.after)}${SEP}${q.limit}${SEP}${opt(q.status)}`;
}
