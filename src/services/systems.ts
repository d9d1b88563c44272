/**
 * Systems and releases as the API shows them. No HTTP, no SQL: pages come
 * back as the records' JSON joined, like every other collection.
 */
import { ApiError, InvalidRequest } from '../errors.ts';
import { jsonItems, jsonText, type JsonText } from '../domain/json-text.ts';
import type { RawPage } from '../domain/pages.ts';
import type { CatalogStore, DerivedReads } from './catalog.ts';
import { SEP } from './cached-navigation.ts';
import type { Store } from '../store/store.ts';
import type { ReleaseInfo, SystemFields, SystemInfo } from '../store/systems-store.ts';

export function systemRecord(s: SystemInfo) {
  return {
    object: 'system' as const,
    id: s.id,
    name: s.name,
    description: s.description,
    url: s.url,
    publisher: s.publisher,
    license: s.license,
    counts: s.counts,
    latest_release: s.latestRelease,
    latest_effective_date: s.latestEffectiveDate,
    updated_at: s.updatedAt,
  };
}

export function releaseRecord(r: ReleaseInfo) {
  return {
    object: 'release' as const,
    system: r.system,
    id: r.id,
    effective_date: r.effectiveDate,
    mode: r.mode,
    imported_at: r.importedAt,
    counts: r.counts,
    first_change_id: r.firstChangeId,
    last_change_id: r.lastChangeId,
  };
}

function rawPage<T, K, R>(found: T[], limit: number, json: (item: T) => R, key: (item: T) => K): RawPage<K, R> {
  const items = found.slice(0, limit);
  return {
    json: jsonItems<R>(items.map((item) => JSON.stringify(json(item))).join(',')),
    count: items.length,
    last: items.length === 0 ? null : key(items.at(-1)!),
    hasMore: found.length > limit,
  };
}

export function systemNotFound(id: string): ApiError {
  return new ApiError('system_not_found', `No system "${id}". GET /v1/systems lists the systems.`, { param: 'system' });
}

export type SystemJson = ReturnType<typeof systemRecord>;
export type ReleaseJson = ReturnType<typeof releaseRecord>;

/**
 * Where the pages below are kept as the JSON they are sent as: every client
 * asks for the same few, and reading them as rows, then writing their JSON,
 * cost a releases page about 1.5× a record under load. Keys: a one-letter
 * prefix (y Y R) and the parameters, as cached-navigation.ts describes.
 */
const UNKEPT: DerivedReads = { page: (_key, read) => read(), text: (_key, read) => read() };
const derived = (store: CatalogStore): DerivedReads => store.derived ?? UNKEPT;

export function listSystems(store: CatalogStore, after: string | null, limit: number): Promise<RawPage<string, SystemJson>> {
  return derived(store).page(`y${SEP}${after ?? ''}${SEP}${limit}`, async () =>
    rawPage(await store.systems.pageSystems(after, limit + 1), limit, systemRecord, (s) => s.id),
  );
}

export async function getSystem(store: CatalogStore, id: string): Promise<JsonText<SystemJson>> {
  const json = await derived(store).text<SystemJson>(`Y${SEP}${id}`, async () => {
    const found = await store.systems.getSystem(id);
    return found === null ? null : jsonText<SystemJson>(JSON.stringify(systemRecord(found)));
  });
  if (json === null) throw systemNotFound(id);
  return json;
}

export function listReleases(store: CatalogStore, system: string, afterSeq: number | null, limit: number): Promise<RawPage<number, ReleaseJson>> {
  return derived(store).page(`R${SEP}${system}${SEP}${afterSeq ?? 0}${SEP}${limit}`, async () => {
    const found = await store.systems.pageReleases(system, afterSeq, limit + 1);
    // An empty first page may mean no such system: one more lookup, only then (a 404 is not kept).
    if (found.length === 0 && afterSeq === null && (await store.systems.getSystem(system)) === null) throw systemNotFound(system);
    return rawPage(found, limit, releaseRecord, (r) => r.seq);
  });
}

/** Every system, for the operator's list. */
export async function allSystems(store: Store): Promise<SystemInfo[]> {
  const out: SystemInfo[] = [];
  for (let after: string | null = null; ;) {
    const page = await store.systems.pageSystems(after, 500);
    out.push(...page);
    if (page.length < 500) return out;
    after = page.at(-1)!.id;
  }
}

/** Every release of a system, in import order, for the operator's view (pageSize: how many a query reads). */
export async function allReleases(store: Store, system: string, pageSize = 500): Promise<ReleaseInfo[]> {
  const out: ReleaseInfo[] = [];
  for (let after: number | null = null; ;) {
    const page = await store.systems.pageReleases(system, after, pageSize);
    out.push(...page);
    if (page.length < pageSize) return out;
    after = page.at(-1)!.seq;
  }
}

const MAX_FIELD_LENGTH = 2000;

/**
 * Sets an operator's descriptive fields of a system; null clears one (a
 * cleared name is the id again, as before it was set). Running servers keep systems in their read
 * cache: afterChange (AdminDeps') returns once every one of them will answer
 * the change on its next request.
 */
export async function setSystemFields(
  store: Store,
  id: string,
  fields: SystemFields,
  now: Date = new Date(),
  afterChange: () => Promise<void> = async () => {},
): Promise<SystemInfo> {
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string' && (value.length > MAX_FIELD_LENGTH || !value.isWellFormed()))
      throw new InvalidRequest(`--${name} must be well-formed text of at most ${MAX_FIELD_LENGTH} characters`);
  }
  if (typeof fields.name === 'string' && fields.name.trim() === '')
    throw new InvalidRequest('--name cannot be only white space: give a name, or an empty value (--name "") to make the name the id again');
  if (fields.url !== undefined && fields.url !== null && !/^https?:\/\/\S+$/.test(fields.url))
    throw new InvalidRequest(`--url must be an http(s) URL (got "${fields.url}")`);
  if (Object.keys(fields).length === 0) throw new InvalidRequest('nothing to set: give at least one of --name, --description, --url, --publisher, --license');
  const updated = await store.systems.updateSystem(id, { ...fields, name: fields.name === null ? id : fields.name }, now.toISOString());
  if (updated === null) throw new InvalidRequest(`no system "${id}"; a system exists once a release of it has been imported`);
  await afterChange();
  return updated;
}
