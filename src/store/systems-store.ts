/**
 * Systems and their releases: what the importer records with every import,
 * and the descriptive fields an operator sets. Each backend implements it in
 * its own dialect (sqlite/systems.ts, postgres/systems.ts).
 */

import type { ReleaseInfo, ReleaseMode, ReleaseWrite, SystemFields, SystemInfo } from '../domain/systems.ts';

export type { ChangeCounts, CodeCounts, ReleaseInfo, ReleaseMode, ReleaseWrite, SystemFields, SystemInfo } from '../domain/systems.ts';

export interface SystemsStore {
  /** Up to limit systems with an id after `after`, by id (binary order). */
  pageSystems(after: string | null, limit: number): Promise<SystemInfo[]>;
  getSystem(id: string): Promise<SystemInfo | null>;
  /** Up to limit releases of the system after the import-order position, in import order. */
  pageReleases(system: string, afterSeq: number | null, limit: number): Promise<ReleaseInfo[]>;
  /** Sets the given fields (a name is never null: a cleared one is the id); null when there is no such system. */
  updateSystem(id: string, fields: SystemFields & { name?: string }, now: string): Promise<SystemInfo | null>;
}

/** What an import needs of releases, inside its transaction. */
export interface ReleaseTransaction {
  releaseExists(system: string, name: string): Promise<boolean>;
  /**
   * The system's latest_effective_date: the latest effective date of its
   * releases, those that changed nothing included; null for a new system.
   */
  latestReleaseDate(system: string): Promise<string | null>;
  recordRelease(release: ReleaseWrite): Promise<void>;
}

export const SYSTEM_FIELDS = ['name', 'description', 'url', 'publisher', 'license'] as const;

/** A systems row, as both backends select it (SYSTEM_COLUMNS). */
export function systemFromRow(r: Record<string, unknown>): SystemInfo {
  const text = (v: unknown) => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));
  return {
    id: String(r.id),
    name: String(r.name),
    description: text(r.description),
    url: text(r.url),
    publisher: text(r.publisher),
    license: text(r.license),
    counts: { active: Number(r.active), deprecated: Number(r.deprecated), retired: Number(r.retired) },
    latestRelease: text(r.latest_release),
    latestEffectiveDate: text(r.latest_effective_date),
    updatedAt: String(r.updated_at),
  };
}

export function releaseFromRow(r: Record<string, unknown>): ReleaseInfo {
  const id = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    system: String(r.system),
    id: String(r.name),
    seq: Number(r.seq),
    effectiveDate: String(r.effective_date),
    mode: String(r.mode) as ReleaseMode,
    importedAt: String(r.imported_at),
    counts: { added: Number(r.added), revised: Number(r.revised), retired: Number(r.retired), reactivated: Number(r.reactivated) },
    firstChangeId: id(r.first_change_id),
    lastChangeId: id(r.last_change_id),
  };
}

export const SYSTEM_COLUMNS = 'id, name, description, url, publisher, license, active, deprecated, retired, latest_release, latest_effective_date, updated_at';
export const RELEASE_COLUMNS = 'seq, system, name, effective_date, mode, imported_at, added, revised, retired, reactivated, first_change_id, last_change_id';

/** The columns a release is written with (both backends), and its values in that order. */
export const RELEASE_WRITE_COLUMNS = 'system, name, effective_date, mode, imported_at, added, revised, retired, reactivated, first_change_id, last_change_id';

export function releaseWriteValues(r: ReleaseWrite): (string | number | null)[] {
  const { added, revised, retired, reactivated } = r.counts;
  return [r.system, r.id, r.effectiveDate, r.mode, r.importedAt, added, revised, retired, reactivated, r.firstChangeId, r.lastChangeId];
}
