/** The part of the Store behind the dashboard: users, sessions, one-time links, sign-in throttling, audit log. */
import type { AuditEntry, User } from '../domain/dashboard.ts';

export type { AuditEntry, User } from '../domain/dashboard.ts';

export interface SessionRow {
  /** SHA-256 of the session token; the token itself lives only in the cookie. */
  hash: string;
  userId: string;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

export interface SignInFailures {
  count: number;
  /** When the latest failure was; null when there is none. */
  latest: string | null;
}

export interface DashboardStore {
  /** null when the email is taken. */
  createUser(user: User): Promise<User | null>;
  getUser(id: string): Promise<User | null>;
  getUserByEmail(email: string): Promise<User | null>;
  listUsers(orgId: string | null): Promise<User[]>;
  setPassword(userId: string, passwordHash: string): Promise<void>;
  disableUser(userId: string, at: string): Promise<void>;

  /** One-time link tokens (stored hashed) that let a user set a password. */
  createPasswordToken(hash: string, userId: string, expiresAt: string): Promise<void>;
  /** Marks the token used and returns its user, once, if it has not expired. */
  consumePasswordToken(hash: string, now: string): Promise<string | null>;
  /** The user of a token that is unused and has not expired, without using it up (the link's page, before the form is sent). */
  passwordTokenUser(hash: string, now: string): Promise<string | null>;
  /** Voids every unused link of the user (after a password is set, or the user is disabled). */
  deletePasswordTokens(userId: string): Promise<void>;

  createSession(session: SessionRow): Promise<void>;
  getSession(hash: string): Promise<SessionRow | null>;
  deleteSession(hash: string): Promise<void>;
  deleteUserSessions(userId: string): Promise<void>;
  deleteExpiredSessions(now: string): Promise<void>;

  /** Records a failed password attempt of a subject (an account, an address, or both); the subject's failures before `forgetBefore` are dropped. */
  recordSignInFailure(subject: string, at: string, forgetBefore: string): Promise<void>;
  /** A subject's failures after `since`: how many, and when the latest was. */
  signInFailures(subject: string, since: string): Promise<SignInFailures>;
  clearSignInFailures(subject: string): Promise<void>;
  /** Remembers that the account signed in from the address at `at`; entries before `forgetBefore` are dropped. */
  rememberSignInAddress(email: string, address: string, at: string, forgetBefore: string): Promise<void>;
  /** Whether the account signed in from the address after `since`. */
  knowsSignInAddress(email: string, address: string, since: string): Promise<boolean>;

  /** Records a one-time form nonce; false when it was used before. Nonces older than `forgetBefore` are dropped. */
  useNonce(nonce: string, at: string, forgetBefore: string): Promise<boolean>;

  addAudit(entry: AuditEntry): Promise<void>;
  listAudit(orgId: string, limit: number): Promise<AuditEntry[]>;
}
