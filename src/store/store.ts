/**
 * The one door to persistent data. HTTP, dashboard, CLI and services reach a
 * database only through this interface; SQLite and PostgreSQL implement it and
 * pass the same suite (test/store/store.suite.ts).
 *
 * Read methods return records as ready JSON text, written when the record was
 * written, so the hot path assembles pages without building objects per row.
 */
import type { ChangeType, CodeContent, CodeStatus } from '../domain/records.ts';
import type { AccessStore, UsageStore } from './access-store.ts';
import type { DashboardStore } from './dashboard-store.ts';
import type { NavigationStore, NavigationWriter } from './navigation-store.ts';

export interface CodePageQuery {
  /** Exclusive lower bound on id (binary order). */
  after: string | null;
  limit: number;
  system: string | null;
  status: CodeStatus | null;
}

export interface ChangeKey {
  effectiveDate: string;
  id: number;
}

export interface ChangePageQuery {
  /** Exclusive lower bound on (effective_date, id). */
  after: ChangeKey | null;
  limit: number;
  system: string | null;
  codeId: string | null;
  type: ChangeType | null;
  effectiveFrom: string | null;
  effectiveTo: string | null;
  /** Only changes of this release (the import that produced them). */
  release?: string | null;
}

/** A page as the store returns it: the records' JSON joined by commas. */
export interface RawPage<K> {
  /** `rec1,rec2,…` — empty string when the page is empty. */
  json: string;
  count: number;
  /** Sort key of the last record on the page; null when the page is empty. */
  last: K | null;
  hasMore: boolean;
}

/** The current state of one code, as the importer needs it to diff. */
export interface StoredCode extends CodeContent {
  /** The row's key (the code_id every write of this code goes to). */
  id: string;
  code: string;
  effectiveFrom: string;
  /** The release that last changed it. */
  release: string;
  /**
   * False when the stored JSON says another id than the row's key, or holds
   * text that is not well-formed (read back here with U+FFFD in its place):
   * the record must be written again.
   */
  wellFormed: boolean;
}

/** A code row written by an import: content plus its ready-made response JSON. */
export interface CodeWrite {
  id: string;
  system: string;
  code: string;
  status: CodeStatus;
  hash: string;
  json: string;
}

export interface ChangeWrite {
  id: number;
  codeId: string;
  system: string;
  type: ChangeType;
  effectiveDate: string;
  json: string;
}

/** Operations available inside an import's exclusive transaction. */
export interface ImportTransaction {
  /** code_id (the row's key) → content hash and status, for every code of the system. */
  codeHashes(system: string): Promise<Map<string, { hash: string; status: CodeStatus }>>;
  /**
   * Full current state of the given codes (ids), in any order; ids with no
   * row are left out. Throws DamagedRecordError for a record it cannot read.
   */
  codesById(ids: string[]): Promise<StoredCode[]>;
  /** The latest effective date of any change recorded for the system (null: of any system), or null when there is none. */
  latestEffectiveDate(system: string | null): Promise<string | null>;
  /** The id the next change must take: one more than any id ever committed. */
  nextChangeId(): Promise<number>;
  writeChanges(changes: ChangeWrite[]): Promise<void>;
  writeCodes(codes: CodeWrite[]): Promise<void>;
  /** Hierarchy and version writes. */
  readonly navigation: NavigationWriter;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Plans, organisations and API keys. */
  readonly access: AccessStore;
  /** Limit counters and per-key daily usage. */
  readonly usage: UsageStore;
  /** Dashboard users, sessions and audit log. */
  readonly dashboard: DashboardStore;
  /** Hierarchy, as-of and batch reads. */
  readonly navigation: NavigationStore;
  pageCodes(query: CodePageQuery): Promise<RawPage<string>>;
  codeJson(id: string): Promise<string | null>;
  codeExists(id: string): Promise<boolean>;
  pageChanges(query: ChangePageQuery): Promise<RawPage<ChangeKey>>;
  countCodes(): Promise<number>;

  /**
   * Runs fn in one transaction that excludes every other import (across
   * processes and instances): all of it commits, or none of it.
   */
  withImport<T>(fn: (tx: ImportTransaction) => Promise<T>): Promise<T>;

  /** A value kept in the database, e.g. the generated cursor secret. */
  getSetting(key: string): Promise<string | null>;
  /** Stores value unless key already has one; returns the value that is kept. */
  ensureSetting(key: string, value: string): Promise<string>;

  /**
   * A number that changes whenever another process or connection has
   * committed to the database, for in-process caches to notice revocations
   * made elsewhere. NaN when the backend cannot tell: then nothing is cached.
   */
  externalWriteVersion(): number;

  /**
   * Writes a consistent copy of the whole database to a new file while other
   * processes keep reading and writing (SQLite). PostgreSQL has its own tools
   * (pg_dump): it refuses with InvalidRequest.
   */
  backupTo(file: string): Promise<void>;

  /** Cheap liveness probe of the database; throws when it cannot be reached (StoreUnavailableError on PostgreSQL). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The database cannot be reached or used right now (connection refused or
 * lost, shutting down, too many connections). Callers answer 503 with
 * Retry-After and try again later; it is never a bug of the request.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}
