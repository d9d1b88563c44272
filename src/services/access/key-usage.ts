/**
 * Usage broken down by key: for the current UTC month and the last 30 days
 * (today included), live and test keys apart. Every request of a known key is
 * in the totals, whatever its outcome; `counted` is what counted toward the
 * monthly allowance.
 */
import { COUNTED_OUTCOMES, type ApiKeyInfo, type KeyMode, type Organisation } from '../../domain/access.ts';
import { keyState, type KeyState } from '../../domain/key-life.ts';
import type { AdminDeps } from './admin.ts';

const DAY_MS = 86_400_000;

export interface KeyUsageTotals {
  total: number;
  counted: number;
}

export interface KeyUsageRow {
  key: ApiKeyInfo;
  state: KeyState;
  month: KeyUsageTotals;
  last30Days: KeyUsageTotals;
}

export interface KeyUsage {
  month: string;
  /** First day of the 30 (YYYY-MM-DD). */
  since: string;
  byMode: Record<KeyMode, KeyUsageRow[]>;
}

export async function usageByKey(deps: AdminDeps, org: Organisation): Promise<KeyUsage> {
  const now = deps.now();
  const month = new Date(now).toISOString().slice(0, 7);
  const since = new Date(now - 29 * DAY_MS).toISOString().slice(0, 10);
  const from = since < `${month}-01` ? since : `${month}-01`;
  const rows = await deps.store.keyLife.usageSince(org.id, from);
  const keys = await deps.store.access.listKeys(org.id);
  const totals = new Map(keys.map((k) => [k.id, { month: { total: 0, counted: 0 }, last30Days: { total: 0, counted: 0 } }]));
  for (const r of rows) {
    const t = totals.get(r.keyId);
    if (!t) continue;
    const counted = COUNTED_OUTCOMES.includes(r.outcome) ? r.count : 0;
    if (r.day.startsWith(month)) {
      t.month.total += r.count;
      t.month.counted += counted;
    }
    if (r.day >= since) {
      t.last30Days.total += r.count;
      t.last30Days.counted += counted;
    }
  }
  const byMode: Record<KeyMode, KeyUsageRow[]> = { live: [], test: [] };
  for (const key of keys) byMode[key.mode].push({ key, state: keyState(key, now), ...totals.get(key.id)! });
  return { month, since, byMode };
}
