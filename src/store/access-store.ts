/** The parts of the Store that hold plans, organisations, keys and usage. */
import type { ApiKeyInfo, KeyMode, Organisation, Outcome, Plan } from '../domain/access.ts';

export interface NewKey {
  id: string;
  orgId: string;
  hash: string;
  displayPrefix: string;
  name: string;
  mode: KeyMode;
  createdAt: string;
  /** null: the key never expires. */
  expiresAt?: string | null;
}

/** The key after a revocation, and whether this call revoked it (false: it already was). */
export interface KeyRevocation {
  key: ApiKeyInfo;
  revokedNow: boolean;
}

/** A key found by its hash, with what authentication needs to know. */
export interface KeyLookup {
  key: ApiKeyInfo;
  org: Organisation;
  plan: Plan;
}

export interface AccessStore {
  upsertPlan(plan: Plan): Promise<void>;
  /** Inserts the plans that do not exist yet; existing ones are left as they are. */
  seedPlans(plans: readonly Plan[]): Promise<void>;
  listPlans(): Promise<Plan[]>;
  getPlan(name: string): Promise<Plan | null>;

  /** Returns null when the slug is taken. */
  createOrg(org: Organisation): Promise<Organisation | null>;
  getOrg(slug: string): Promise<Organisation | null>;
  getOrgById(id: string): Promise<Organisation | null>;
  setOrgPlan(slug: string, plan: string): Promise<boolean>;
  listOrgs(): Promise<Organisation[]>;

  insertKey(key: NewKey): Promise<void>;
  getKey(id: string): Promise<ApiKeyInfo | null>;
  /** Sets revoked_at unless already revoked; returns the key as it now is (null: no such key). */
  revokeKey(id: string, revokedAt: string): Promise<KeyRevocation | null>;
  listKeys(orgId: string): Promise<ApiKeyInfo[]>;
  findKeyByHash(hash: string): Promise<KeyLookup | null>;
  /** The hash of every stored key (revoked ones too), or null when there are more than max. */
  keyHashes(max: number): Promise<string[] | null>;
}

export interface CounterRow {
  orgId: string;
  window: string;
  count: number;
}

export interface UsageRow {
  keyId: string;
  day: string;
  outcome: Outcome;
  count: number;
}

export interface UsageStore {
  /** Counts of the given windows for one organisation (missing windows: absent). */
  loadCounters(orgId: string, windows: string[]): Promise<Map<string, number>>;
  /**
   * The limiter's job: writes limit counters (absolute values) in one
   * transaction, and when keepWindows is not empty deletes the minute
   * counters of other windows. Returns false, writing nothing, when the
   * database is busy with another writer: the caller keeps its counts and
   * tries again later.
   */
  writeCounters(counters: CounterRow[], keepWindows: string[]): Promise<boolean>;
  /**
   * The usage recorder's job: adds per-day usage deltas and moves keys'
   * last-used times forward, in one transaction. Returns false, writing
   * nothing, when the database is busy with another writer.
   */
  addUsage(usage: UsageRow[], lastUsed: Map<string, string>): Promise<boolean>;
  /** Usage of an organisation's keys in one month ('YYYY-MM'), by key, day and outcome. */
  usageByDay(orgId: string, month: string): Promise<UsageRow[]>;
}

/** What a limiter needs of the usage store: its counters. */
export type CounterStore = Pick<UsageStore, 'loadCounters' | 'writeCounters'>;
