/** A key's life beyond active and revoked: expiry, a roll's grace period, exposure. */
import type { ApiKeyInfo } from './access.ts';

const DAY_MS = 86_400_000;

/** Grace periods a roll offers: how long the old key keeps working beside its successor. */
export const GRACE_PERIODS = { now: 0, '1h': 3_600_000, '24h': DAY_MS, '7d': 7 * DAY_MS } as const;
export type GracePeriod = keyof typeof GRACE_PERIODS;
export const GRACE_NAMES = Object.keys(GRACE_PERIODS) as GracePeriod[];

/** Expiries the dashboard offers at creation (days), beside "never" and a date. */
export const EXPIRY_DAYS = [30, 90, 365] as const;

/** Keys expiring within this many days are marked on the keys page. */
export const EXPIRING_SOON_DAYS = 7;

/** An expired key answers exactly as a revoked one: from its expiry on, it is refused. */
export function isExpired(key: Pick<ApiKeyInfo, 'expiresAt'>, nowMs: number): boolean {
  return key.expiresAt !== null && nowMs >= Date.parse(key.expiresAt);
}

export type KeyState = 'active' | 'expired' | 'revoked';

export function keyState(key: Pick<ApiKeyInfo, 'revokedAt' | 'expiresAt'>, nowMs: number): KeyState {
  if (key.revokedAt !== null) return 'revoked';
  return isExpired(key, nowMs) ? 'expired' : 'active';
}

/** Whole days left before the key expires (rounded up); null when it never does. */
export function daysLeft(key: Pick<ApiKeyInfo, 'expiresAt'>, nowMs: number): number | null {
  return key.expiresAt === null ? null : Math.max(0, Math.ceil((Date.parse(key.expiresAt) - nowMs) / DAY_MS));
}
