/**
 * Hierarchy reads for a system whose closure is too large to keep (a chain
 * thousands of levels deep): walk the edges a level at a time, one query per
 * level, then page the result. Both backends use it with their own queries.
 */
import type { CodeRecord, CodeStatus } from '../domain/records.ts';
import type { AncestorKey } from './navigation-store.ts';
import type { RawPage } from '../domain/pages.ts';
import { jsonItems } from '../domain/json-text.ts';

/** Ids one step away from any of `ids` (children or parents). */
export type Step = (ids: string[]) => Promise<string[]>;
/** id → [status, json] of the ids that exist. */
export type Fetch = (ids: string[]) => Promise<Map<string, [CodeStatus, string]>>;

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Every id reachable from `start`, each with its shortest distance. */
async function walk(start: string, step: Step): Promise<Map<string, number>> {
  const distance = new Map<string, number>();
  let frontier = [start];
  for (let d = 1; frontier.length > 0; d++) {
    const next: string[] = [];
    for (const id of await step(frontier)) {
      if (id === start || distance.has(id)) continue;
      distance.set(id, d);
      next.push(id);
    }
    frontier = next;
  }
  return distance;
}

/** Pages `ordered` (already past the cursor) keeping codes of `status`, fetching limit+1 at a time. */
async function pageOf<K>(ordered: K[], idOf: (k: K) => string, limit: number, status: CodeStatus | null, fetch: Fetch): Promise<RawPage<K, CodeRecord>> {
  const kept: [K, string][] = [];
  for (let at = 0; at < ordered.length && kept.length <= limit; at += limit + 1) {
    const slice = ordered.slice(at, at + limit + 1);
    const found = await fetch(slice.map(idOf));
    for (const key of slice) {
      const row = found.get(idOf(key));
      if (row && (status === null || row[0] === status)) kept.push([key, row[1]]);
    }
  }
  const count = Math.min(kept.length, limit);
  return {
    json: jsonItems<CodeRecord>(
      kept
        .slice(0, count)
        .map((k) => k[1])
        .join(','),
    ),
    count,
    last: count === 0 ? null : kept[count - 1]![0],
    hasMore: kept.length > limit,
  };
}

export async function walkDescendants(
  id: string,
  after: string | null,
  limit: number,
  status: CodeStatus | null,
  down: Step,
  fetch: Fetch,
): Promise<RawPage<string, CodeRecord>> {
  const ids = [...(await walk(id, down)).keys()].sort(byBytes).filter((d) => after === null || byBytes(d, after) > 0);
  return pageOf(ids, (d) => d, limit, status, fetch);
}

export async function walkAncestors(
  id: string,
  after: AncestorKey | null,
  limit: number,
  status: CodeStatus | null,
  up: Step,
  fetch: Fetch,
): Promise<RawPage<AncestorKey, CodeRecord>> {
  const keys = [...(await walk(id, up))].map(([a, distance]) => ({ distance, id: a }));
  const compare = (x: AncestorKey, y: AncestorKey) => x.distance - y.distance || byBytes(x.id, y.id);
  keys.sort(compare);
  return pageOf(after === null ? keys : keys.filter((k) => compare(k, after) > 0), (k) => k.id, limit, status, fetch);
}
