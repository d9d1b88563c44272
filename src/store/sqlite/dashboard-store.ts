/** DashboardStore over node:sqlite, sharing the store's connection. */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { AuditEntry, DashboardStore, SessionRow, User } from '../dashboard-store.ts';

type Row = Record<string, unknown>;

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function userFromRow(r: Row): User {
  return {
    id: String(r.id),
    orgId: String(r.org_id),
    email: String(r.email),
    passwordHash: text(r.password_hash),
    createdAt: String(r.created_at),
    disabledAt: text(r.disabled_at),
  };
}

export class SqliteDashboardStore implements DashboardStore {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  private stmt(sql: string): StatementSync {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  async createUser(u: User): Promise<User | null> {
    const result = this.stmt(
      'INSERT INTO users (id, org_id, email, password_hash, created_at, disabled_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING',
    ).run(u.id, u.orgId, u.email, u.passwordHash, u.createdAt, u.disabledAt);
    return Number(result.changes) === 1 ? u : null;
  }

  async getUser(id: string): Promise<User | null> {
    const r = this.stmt('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
    return r ? userFromRow(r) : null;
  }

  async getUserByEmail(email: string): Promise<User | null> {
    const r = this.stmt('SELECT * FROM users WHERE email = ?').get(email) as Row | undefined;
    return r ? userFromRow(r) : null;
  }

  async listUsers(orgId: string | null): Promise<User[]> {
    const rows = orgId === null
      ? this.stmt('SELECT * FROM users ORDER BY email').all()
      : this.stmt('SELECT * FROM users WHERE org_id = ? ORDER BY email').all(orgId);
    return (rows as Row[]).map(userFromRow);
  }

  async setPassword(userId: string, passwordHash: string): Promise<void> {
    this.stmt('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, userId);
  }

  async disableUser(userId: string, at: string): Promise<void> {
    this.stmt('UPDATE users SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL').run(at, userId);
  }

  async createPasswordToken(hash: string, userId: string, expiresAt: string): Promise<void> {
    this.stmt('INSERT INTO password_tokens (hash, user_id, expires_at) VALUES (?, ?, ?)').run(hash, userId, expiresAt);
  }

  async consumePasswordToken(hash: string, now: string): Promise<string | null> {
    const r = this.stmt(
      'UPDATE password_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id',
    ).get(now, hash, now) as Row | undefined;
    return r ? String(r.user_id) : null;
  }

  async createSession(s: SessionRow): Promise<void> {
    this.stmt('INSERT INTO sessions (hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
      s.hash,
      s.userId,
      s.csrfToken,
      s.createdAt,
      s.expiresAt,
    );
  }

  async getSession(hash: string): Promise<SessionRow | null> {
    const r = this.stmt('SELECT * FROM sessions WHERE hash = ?').get(hash) as Row | undefined;
    if (!r) return null;
    return {
      hash: String(r.hash),
      userId: String(r.user_id),
      csrfToken: String(r.csrf_token),
      createdAt: String(r.created_at),
      expiresAt: String(r.expires_at),
    };
  }

  async deleteSession(hash: string): Promise<void> {
    this.stmt('DELETE FROM sessions WHERE hash = ?').run(hash);
  }

  async deleteUserSessions(userId: string): Promise<void> {
    this.stmt('DELETE FROM sessions WHERE user_id = ?').run(userId);
  }

  async deleteExpiredSessions(now: string): Promise<void> {
    this.stmt('DELETE FROM sessions WHERE expires_at <= ?').run(now);
  }

  async recordSignInFailure(subject: string, at: string): Promise<void> {
    this.stmt('INSERT INTO sign_in_failures (subject, at) VALUES (?, ?)').run(subject, at);
  }

  async countSignInFailures(subject: string, since: string): Promise<number> {
    return Number((this.stmt('SELECT count(*) AS n FROM sign_in_failures WHERE subject = ? AND at > ?').get(subject, since) as Row).n);
  }

  async clearSignInFailures(subject: string): Promise<void> {
    this.stmt('DELETE FROM sign_in_failures WHERE subject = ?').run(subject);
  }

  async useNonce(nonce: string, at: string, forgetBefore: string): Promise<boolean> {
    this.stmt('DELETE FROM form_nonces WHERE at < ?').run(forgetBefore);
    return Number(this.stmt('INSERT INTO form_nonces (nonce, at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING').run(nonce, at).changes) === 1;
  }

  async addAudit(e: AuditEntry): Promise<void> {
    this.stmt('INSERT INTO audit_log (org_id, actor, action, target, at) VALUES (?, ?, ?, ?, ?)').run(e.orgId, e.actor, e.action, e.target, e.at);
  }

  async listAudit(orgId: string, limit: number): Promise<AuditEntry[]> {
    return (this.stmt('SELECT * FROM audit_log WHERE org_id = ? ORDER BY id DESC LIMIT ?').all(orgId, limit) as Row[]).map((r) => ({
      orgId: String(r.org_id),
      actor: String(r.actor),
      action: String(r.action),
      target: String(r.target),
      at: String(r.at),
    }));
  }
}
