/**
 * Dashboard sessions: a random token in an HttpOnly cookie, stored only as its
 * SHA-256, with a per-session CSRF token for every form.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Organisation } from '../../domain/access.ts';
import type { User } from '../../store/dashboard-store.ts';
import { hashSecret } from '../access/api-keys.ts';
import type { UserDeps } from './users.ts';

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface ActiveSession {
  tokenHash: string;
  csrfToken: string;
  user: User;
  org: Organisation;
}

export async function startSession(deps: UserDeps, user: User): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.now();
  const expiresAt = new Date(now + SESSION_TTL_MS);
  await deps.store.dashboard.deleteExpiredSessions(new Date(now).toISOString());
  await deps.store.dashboard.createSession({
    hash: hashSecret(token),
    userId: user.id,
    csrfToken: randomBytes(24).toString('base64url'),
    createdAt: new Date(now).toISOString(),
    expiresAt: expiresAt.toISOString(),
  });
  return { token, expiresAt };
}

/** The session a cookie token belongs to, if it is live and its user still enabled. */
export async function resumeSession(deps: UserDeps, token: string | undefined): Promise<ActiveSession | null> {
  if (!token || token.length > 100) return null;
  const hash = hashSecret(token);
  const session = await deps.store.dashboard.getSession(hash);
  if (!session || session.expiresAt <= new Date(deps.now()).toISOString()) return null;
  const user = await deps.store.dashboard.getUser(session.userId);
  if (!user || user.disabledAt !== null) return null;
  const org = await deps.store.access.getOrgById(user.orgId);
  if (!org) return null;
  return { tokenHash: hash, csrfToken: session.csrfToken, user, org };
}

export async function endSession(deps: UserDeps, tokenHash: string): Promise<void> {
  await deps.store.dashboard.deleteSession(tokenHash);
}

export function sameToken(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  // Compare bytes: a string of the right length with non-ASCII characters has more of them.
  const [given, expected] = [Buffer.from(a), Buffer.from(b)];
  return given.length === expected.length && timingSafeEqual(given, expected);
}
