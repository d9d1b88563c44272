/** The part of the Store behind the dashboard: users, sessions, one-time links, sign-in throttling, audit log. */

export interface User {
  id: string;
  orgId: string;
  email: string;
  /** null until the user has set a password through their one-time link. */
  passwordHash: string | null;
  createdAt: string;
  disabledAt: string | null;
}

export interface SessionRow {
  /** SHA-256 of the session token; the token itself lives only in the cookie. */
  hash: string;
  userId: string;
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

export interface AuditEntry {
  orgId: string;
  /** The user's email, or "operator" for the CLI. */
  actor: string;
  action: string;
  target: string;
  at: string;
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
  /** Voids every unused link of the user (after a password is set, or the user is disabled). */
  deletePasswordTokens(userId: string): Promise<void>;

  createSession(session: SessionRow): Promise<void>;
  getSession(hash: string): Promise<SessionRow | null>;
  deleteSession(hash: string): Promise<void>;
  deleteUserSessions(userId: string): Promise<void>;
  deleteExpiredSessions(now: string): Promise<void>;

  /** Failed sign-ins by subject ('email:…' or 'ip:…'), for throttling. */
  recordSignInFailure(subject: string, at: string): Promise<void>;
  countSignInFailures(subject: string, since: string): Promise<number>;
  clearSignInFailures(subject: string): Promise<void>;

  /** Records a one-time form nonce; false when it was used before. Nonces older than `forgetBefore` are dropped. */
  useNonce(nonce: string, at: string, forgetBefore: string): Promise<boolean>;

  addAudit(entry: AuditEntry): Promise<void>;
  listAudit(orgId: string, limit: number): Promise<AuditEntry[]>;
}
