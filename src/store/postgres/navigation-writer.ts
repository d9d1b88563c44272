/**
 * What an import writes on PostgreSQL for the navigation reads, on the
 * import's connection and inside its transaction.
 */
import { replayCode, type CodeVersion } from '../../domain/history.ts';
import type { ChangeRecord } from '../../domain/records.ts';
import type { NavigationWriter } from '../navigation-store.ts';
import { closureBoundSql, closureFits, closureInsertSql } from '../sql/closure-queries.ts';
import { arrays, exec, type Queryable } from './pg-client.ts';

const CHUNK = 5_000;

function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}

/** Ids of a system are `{system}:…`: they sort from `{system}:` up to, not including, `{system};`. */
const range = (system: string) => [`${system}:`, `${system};`];

export class PostgresNavigationWriter implements NavigationWriter {
  private readonly client: Queryable;

  constructor(client: Queryable) {
    this.client = client;
  }

  async replaceParents(codes: readonly { id: string; parents: readonly string[] }[]): Promise<void> {
    for (const part of chunks(codes)) {
      await exec(this.client, 'DELETE FROM code_edges WHERE child = ANY($1::text[])', [part.map((c) => c.id)]);
      const edges = part.flatMap((c) => [...new Set(c.parents)].map((parent) => [c.id, parent] as const));
      if (edges.length === 0) continue;
      await exec(this.client, 'INSERT INTO code_edges (child, parent) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING', [
        edges.map((e) => e[0]),
        edges.map((e) => e[1]),
      ]);
    }
  }

  async rebuildClosure(system: string, budget: number): Promise<boolean> {
    const p = (n: number) => `$${n}`;
    await exec(this.client, 'DELETE FROM code_closure WHERE descendant >= $1 AND descendant < $2', range(system));
    const cap = budget + 1;
    const [[paths, pairs]] = (await arrays<[string, string]>(this.client, closureBoundSql(p), [...range(system), cap])) as [[string, string]];
    const kept = closureFits(Number(paths), Number(pairs), cap, budget);
    if (kept) await exec(this.client, closureInsertSql(p), range(system));
    await exec(this.client, 'INSERT INTO code_hierarchies (system, closure) VALUES ($1, $2) ON CONFLICT (system) DO UPDATE SET closure = excluded.closure', [
      system,
      kept ? 1 : 0,
    ]);
    return kept;
  }

  async latestVersions(codeIds: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const part of chunks(codeIds)) {
      const rows = await arrays<[string, string]>(
        this.client,
        `SELECT DISTINCT ON (code_id) code_id, json FROM code_versions
        WHERE code_id = ANY($1::text[]) ORDER BY code_id, valid_from DESC, change_id DESC`,
        [part],
      );
      for (const [id, json] of rows) found.set(id, json);
    }
    return found;
  }

  async appendVersions(versions: CodeVersion[], closePrevious: boolean): Promise<void> {
    for (const part of chunks(versions)) {
      if (closePrevious) {
        await exec(
          this.client,
          `UPDATE code_versions v SET valid_to = u.d FROM unnest($1::text[], $2::text[]) AS u(id, d)
          WHERE v.code_id = u.id AND v.valid_to IS NULL`,
          [part.map((v) => v.codeId), part.map((v) => v.validFrom)],
        );
      }
      await exec(
        this.client,
        `INSERT INTO code_versions (change_id, code_id, system, valid_from, valid_to, status, json)
        SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
        [
          part.map((v) => v.changeId),
          part.map((v) => v.codeId),
          part.map((v) => v.system),
          part.map((v) => v.validFrom),
          part.map((v) => v.validTo) as string[],
          part.map((v) => v.status),
          part.map((v) => v.json),
        ],
      );
    }
  }

  async rebuildVersions(codeIds: readonly string[]): Promise<void> {
    for (const part of chunks(codeIds)) {
      const found = await arrays<[string, string]>(this.client, 'SELECT code_id, json FROM changes WHERE code_id = ANY($1::text[]) ORDER BY code_id', [part]);
      await exec(this.client, 'DELETE FROM code_versions WHERE code_id = ANY($1::text[])', [part]);
      await this.appendVersions(replayAll(found), false);
    }
  }
}

/** Versions of every code in `rows` ([code_id, change json], grouped by code_id). */
export function replayAll(rows: Iterable<[string, string]>): CodeVersion[] {
  const versions: CodeVersion[] = [];
  let current: string | null = null;
  let changes: ChangeRecord[] = [];
  for (const [codeId, json] of rows) {
    if (codeId !== current && changes.length > 0) {
      versions.push(...replayCode(changes));
      changes = [];
    }
    current = codeId;
    try {
      changes.push(JSON.parse(json) as ChangeRecord);
    } catch {
      // A damaged change is left out of the replay.
    }
  }
  if (changes.length > 0) versions.push(...replayCode(changes));
  return versions;
}
