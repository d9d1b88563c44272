/**
 * Dashboard users: created by the operator with a one-time link to set a
 * password, signing in with throttling by account and address, changing
 * their password, being disabled. Every change lands in the audit log, in
 * the transaction that makes it: the change and its entry, or neither.
 */
import { randomBytes } from 'node:crypto';
import type { Organisation } from '../../domain/access.ts';
import { InvalidRequest } from '../../errors.ts';
import type { User } from '../../domain/dashboard.ts';
import type { DashboardStore } from '../../store/dashboard-store.ts';
import type { Store, WriteTransaction } from '../../store/store.ts';
import { hashSecret, randomAlphanumeric } from '../access/api-keys.ts';
import { audit, OPERATOR } from '../audit.ts';
import { throttledPasswordCheck } from './password-throttle.ts';
import { checkPasswordRules, DUMMY_HASH, hashPassword, verifyPassword } from './passwords.ts';

export interface UserDeps {
  store: Store;
  now: () => number;
}

export const LINK_VALIDITY_MS = 24 * 60 * 60 * 1000;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

const iso = (ms: number) => new Date(ms).toISOString();

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  // JSON quoting keeps the message on one line whatever was typed.
  if (!EMAIL.test(e)) throw new InvalidRequest(`${JSON.stringify(email)} is not an email address`);
  return e;
}

/** A new one-time link token for the user; only its hash is stored. */
async function issueLinkToken(deps: UserDeps, dashboard: DashboardStore, user: User): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = iso(deps.now() + LINK_VALIDITY_MS);
  await dashboard.createPasswordToken(hashSecret(token), user.id, expiresAt);
  return { token, expiresAt };
}

export async function createUser(deps: UserDeps, org: Organisation, email: string): Promise<{ user: User; token: string; expiresAt: string }> {
  const normalised = normaliseEmail(email);
  return deps.store.withTransaction(async (tx) => {
    const user = await tx.dashboard.createUser({
      id: `usr_${randomAlphanumeric(16)}`,
      orgId: org.id,
      email: normalised,
      passwordHash: null,
      createdAt: iso(deps.now()),
      disabledAt: null,
    });
    if (!user) throw new InvalidRequest(`a user with email ${normalised} already exists`);
    await audit(tx, deps, org.id, OPERATOR, 'user.created', user.email);
    return { user, ...(await issueLinkToken(deps, tx.dashboard, user)) };
  });
}

/** A fresh one-time link for an existing user (forgotten password). Using any of the user's links voids the others. */
export async function newPasswordLink(deps: UserDeps, email: string): Promise<{ user: User; token: string; expiresAt: string }> {
  const user = await requireUser(deps, email);
  if (user.disabledAt !== null) throw new InvalidRequest(`user ${user.email} is disabled`);
  return { user, ...(await issueLinkToken(deps, deps.store.dashboard, user)) };
}

export async function requireUser(deps: UserDeps, email: string): Promise<User> {
  const user = await deps.store.dashboard.getUserByEmail(normaliseEmail(email));
  if (!user) throw new InvalidRequest(`no user with email ${normaliseEmail(email)}`);
  return user;
}

/** The user after a disable, and whether this call disabled them (false: they already were), as a key's revocation. */
export interface UserDisabling {
  user: User;
  disabledNow: boolean;
}

export async function disableUser(deps: UserDeps, email: string): Promise<UserDisabling> {
  const user = await requireUser(deps, email);
  // Already disabled: the state asked for, so nothing is written again (its time and the audit log stay as they were).
  if (user.disabledAt !== null) return { user, disabledNow: false };
  const disabled = await deps.store.withTransaction(async (tx) => {
    await tx.dashboard.disableUser(user.id, iso(deps.now()));
    await tx.dashboard.deleteUserSessions(user.id);
    await tx.dashboard.deletePasswordTokens(user.id);
    await audit(tx, deps, user.orgId, OPERATOR, 'user.disabled', user.email);
    return (await tx.dashboard.getUser(user.id))!;
  });
  return { user: disabled, disabledNow: true };
}

/**
 * A user's new password, in the caller's transaction, with what it ends (the
 * user's sessions, and the links printed before: none may set another
 * password over this one) and its audit entry.
 */
async function storePassword(
  tx: WriteTransaction,
  deps: UserDeps,
  user: User,
  passwordHash: string,
  action: 'password.set' | 'password.changed',
): Promise<void> {
  await tx.dashboard.setPassword(user.id, passwordHash);
  await tx.dashboard.deleteUserSessions(user.id);
  await tx.dashboard.deletePasswordTokens(user.id);
  await audit(tx, deps, user.orgId, user.email, action, user.email);
}

/** What a dead link says, on its page (password-links.ts) and when its form is sent. */
export const INVALID_LINK = 'This link is not valid: it was already used, has expired, or was never issued. Ask your operator for a new one.';

/**
 * Sets the password through a one-time link token; the token works once. It
 * is used up in the transaction that sets the password: a password that could
 * not be set leaves the link working.
 */
export async function setPasswordWithToken(deps: UserDeps, token: string, password: string): Promise<User> {
  checkPasswordRules(password);
  const hash = hashSecret(token);
  // Checked before the password is hashed: a dead link costs no scrypt work.
  const userId = await deps.store.dashboard.passwordTokenUser(hash, iso(deps.now()));
  const user = userId === null ? null : await deps.store.dashboard.getUser(userId);
  if (!user || user.disabledAt !== null) throw new InvalidRequest(INVALID_LINK);
  // Hashed outside the transaction, which holds the write lock.
  const passwordHash = await hashPassword(password);
  await deps.store.withTransaction(async (tx) => {
    // One UPDATE: of two uses of the same link at once, one sets the password.
    if ((await tx.dashboard.consumePasswordToken(hash, iso(deps.now()))) !== user.id) throw new InvalidRequest(INVALID_LINK);
    await storePassword(tx, deps, user, passwordHash, 'password.set');
  });
  return user;
}

/** Guesses at the current password are throttled like sign-ins, for the user's account and the address. */
export async function changePassword(deps: UserDeps, user: User, current: string, next: string, address: string): Promise<void> {
  const hash = user.passwordHash;
  const ok = await throttledPasswordCheck(deps, user.email, address, async () => hash !== null && (await verifyPassword(current, hash)));
  if (!ok) throw new InvalidRequest('The current password is not correct.');
  checkPasswordRules(next);
  const passwordHash = await hashPassword(next);
  await deps.store.withTransaction((tx) => storePassword(tx, deps, user, passwordHash, 'password.changed'));
}

/**
 * Checks email and password, throttled by account and address (see
 * password-throttle.ts): PasswordAttemptsThrottled while a delay runs, whether
 * or not the password is right. Unknown emails cost the same scrypt work as
 * known ones.
 */
export async function signIn(deps: UserDeps, emailInput: string, password: string, address: string): Promise<User | null> {
  const email = emailInput.trim().toLowerCase();
  let user: User | null = null;
  const ok = await throttledPasswordCheck(deps, email, address, async () => {
    user = await deps.store.dashboard.getUserByEmail(email);
    const matches = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    return matches && user !== null && user.passwordHash !== null && user.disabledAt === null;
  });
  return ok ? user : null;
}
