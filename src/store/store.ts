/**
 * The one door to persistent data. HTTP, dashboard, CLI and services reach a
 * database only through this interface; SQLite and PostgreSQL implement it and
 * pass the same suite (test/store/store.suite.ts).
 *
 * Read methods return records as ready JSON text, written when the record was
 * written, so the hot path assembles pages without building objects per row.
 */
import type { ChangeKey, ChangePageQuery, CodePageQuery, RawPage } from '../domain/pages.ts';
import type { JsonText } from '../domain/json-text.ts';
import type { ChangeRecord, ChangeType, CodeContent, CodeRecord, CodeStatus } from '../domain/records.ts';
import type { CodeSearchQuery, SearchKey } from './search-walk.ts';
import type { ReleaseTransaction, SystemsStore } from './systems-store.ts';
import type { AccessStore, UsageStore } from './access-store.ts';
import type { DashboardStore } from './dashboard-store.ts';
import type { KeyLifeStore, KeyRecordStore } from './key-life-store.ts';
import type { NavigationStore, NavigationWriter } from './navigation-store.ts';

export type { ChangeKey, ChangePageQuery, CodePageQuery, RawPage } from '../domain/pages.ts';
export { StoreUnavailableError } from '../errors.ts';

/**
 * How long an import waits for another import to finish, by default: longer
 * than the largest import the README times (the 1 000 000-code snapshot, about
 * a minute a system), with room for a slower machine. On SQLite the operator
 * CLI's other writes wait as long for an import to commit (SqliteStoreOptions.writeWait).
 */
export const IMPORT_WAIT_MS = 10 * 60_000;

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
  /** Indexed for search, with the code, in the same transaction. */
  display: string;
  definition: string | null;
  /** The record has no parents: a root of its system (GET /v1/systems/{system}/roots). */
  root: boolean;
  /**
   * True when the import found no stored record of this id: the code is new,
   * and so is its search row, which the store then writes without looking for
   * one. Left out, the store looks.
   */
  isNew?: boolean;
}

export interface ChangeWrite {
  id: number;
  codeId: string;
  system: string;
  type: ChangeType;
  effectiveDate: string;
  /** The release the change was imported in (GET /v1/changes?release=). */
  release: string;
  json: string;
}

/** Operations available inside an import's exclusive transaction. */
export interface ImportTransaction extends ReleaseTransaction {
  /** code_id (the row's key) → content hash and status, for every code of the system. */
  codeHashes(system: string): Promise<Map<string, { hash: string; status: CodeStatus }>>;
  /**
   * The system's codes with an id above `after`, in id order (binary, as codes
   * are paged), at most `limit`: the stored side of an import's merge.
   */
  codeStatesAfter(system: string, after: string, limit: number): Promise<[id: string, hash: string, status: CodeStatus][]>;
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
  /**
   * Told once, before the first write: the import's file holds this many codes
   * of the system. A store may prepare for a large write (SQLite drops the
   * search table's folded-display index up front when the import must add
   * enough records to build it again anyway).
   */
  expectCodes(system: string, fileRows: number): Promise<void>;
  writeCodes(codes: CodeWrite[]): Promise<void>;
  /** Hierarchy and version writes. */
  readonly navigation: NavigationWriter;
}

/**
 * What one Store.withTransaction() may read and write: plans, organisations
 * and keys, dashboard users and the audit log, keys' expiries, rolls,
 * exposures and organisation settings. Reads see the transaction's own writes.
 */
export interface WriteTransaction {
  readonly access: AccessStore;
  readonly dashboard: DashboardStore;
  readonly keyLife: KeyRecordStore;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Plans, organisations and API keys. */
  readonly access: AccessStore;
  /** Limit counters and per-key daily usage. */
  readonly usage: UsageStore;
  /** Dashboard users, sessions and audit log. */
  readonly dashboard: DashboardStore;
  /** Key expiries, exposures, organisation settings and the request log. */
  readonly keyLife: KeyLifeStore;
  /** Hierarchy, as-of and batch reads. */
  readonly navigation: NavigationStore;
  pageCodes(query: CodePageQuery): Promise<RawPage<string, CodeRecord>>;
  codeJson(id: string): Promise<JsonText<CodeRecord> | null>;
  /** codeJson() without a promise, where the backend reads in this process (SQLite); absent elsewhere. */
  codeJsonNow?(id: string): JsonText<CodeRecord> | null;
  codeExists(id: string): Promise<boolean>;
  pageChanges(query: ChangePageQuery): Promise<RawPage<ChangeKey, ChangeRecord>>;
  /** Systems and their releases. */
  readonly systems: SystemsStore;
  /** A page of codes matching a search, in its four groups (see search-walk.ts). */
  searchCodes(query: CodeSearchQuery): Promise<RawPage<SearchKey, CodeRecord>>;
  countCodes(): Promise<number>;
  /** Whether any code is stored: what the server asks at start, without counting a million rows. */
  hasCodes(): Promise<boolean>;

  /**
   * Runs fn in one transaction that excludes every other import (across
   * processes and instances): all of it commits, or none of it.
   */
  withImport<T>(fn: (tx: ImportTransaction) => Promise<T>): Promise<T>;

  /**
   * Runs fn in one transaction: everything it writes through tx commits when
   * it resolves, and none of it when it throws or the process dies first. A
   * change and its audit entry are written this way, so that neither is ever
   * stored without the other. fn must reach the database only through tx (a
   * write beside it would not be part of the transaction), and must not wait
   * on anything slow: other writers wait for it (on SQLite, every other
   * writer of the file).
   */
  withTransaction<T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<T>;

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
   * Resolves once every process reading this database sees what was committed
   * before the call: a writer (a revocation, a plan change) awaits it before
   * it returns. SQLite: one freshness window (see sqlite/write-window.ts).
   * PostgreSQL: at once; instances learn of changes through Redis.
   */
  settleWrites(): Promise<void>;

  /**
   * PostgreSQL: whether servers that share their limits through Redis are
   * running on this database (they hold the server lock shared). A process
   * without Redis cannot tell them of its changes; they read them from the
   * database on their next tick. SQLite has no such servers.
   */
  serversSharingLimits?(): Promise<boolean>;

  /**
   * Called after every import commits, before withImport returns (the
   * composition root tells the other instances through Redis). A listener
   * must not throw: the import has committed.
   */
  onImportCommitted(listener: () => Promise<void>): void;

  /**
   * Writes a consistent copy of the whole database to a new file while other
   * processes keep reading and writing (SQLite). PostgreSQL has its own tools
   * (pg_dump): it refuses with InvalidRequest. Returns the files written:
   * the file itself and any beside it that belong to the copy (SQLite's
   * activity file, `<file>.activity`); none of them is ever replaced
   * (InvalidRequest when one exists).
   */
  backupTo(file: string): Promise<string[]>;

  /** Cheap liveness probe of the database; throws when it cannot be reached (StoreUnavailableError on PostgreSQL). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
