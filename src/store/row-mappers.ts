/**
 * Rows of the access and dashboard tables → domain objects, shared by every
 * backend. Column names are the same on SQLite and PostgreSQL; only the
 * representation of booleans differs (0/1 against true/false).
 */
import type { ApiKeyInfo, EndpointName, KeyMode, Organisation, Plan } from '../domain/access.ts';
import type { User } from './dashboard-store.ts';

export type Row = Record<string, unknown>;

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const flag = (v: unknown): boolean => v === true || Number(v) === 1;

export function planFromRow(r: Row): Plan {
  return {
    name: String(r.name),
    endpoints: JSON.parse(String(r.endpoints)) as EndpointName[],
    ratePerMinute: Number(r.rate_per_minute),
    monthlyQuota: r.monthly_quota === null ? null : Number(r.monthly_quota),
    testKeysAllowed: flag(r.test_keys_allowed),
  };
}

export function orgFromRow(r: Row): Organisation {
  return { id: String(r.id), slug: String(r.slug), plan: String(r.plan), createdAt: String(r.created_at) };
}

export function keyFromRow(r: Row): ApiKeyInfo {
  return {
    id: String(r.id),
    orgId: String(r.org_id),
    name: String(r.name),
    mode: r.mode as KeyMode,
    displayPrefix: String(r.display_prefix),
    createdAt: String(r.created_at),
    revokedAt: text(r.revoked_at),
    lastUsedAt: text(r.last_used_at),
  };
}

export function userFromRow(r: Row): User {
  return {
    id: String(r.id),
    orgId: String(r.org_id),
    email: String(r.email),
    passwordHash: text(r.password_hash),
    createdAt: String(r.created_at),
    disabledAt: text(r.disabled_at),
  };
}
