/** The DashboardStore, written once for both backends over their Sql (see sql.ts). */
import type { AuditEntry, DashboardStore, SessionRow, SignInFailures, User } from '../dashboard-store.ts';
import { sessionFromRow, userFromRow } from './row-mappers.ts';
import type { Sql } from './sql.ts';

const USER_COLUMNS = 'id, org_id, email, password_hash, created_at, disabled_at';
const SESSION_COLUMNS = 'hash, user_id, csrf_token, created_at, expires_at';

export class SqlDashboardStore implements DashboardStore {
  private readonly sql: Sql;

  constructor(sql: Sql) {
    this.sql = sql;
  }

  async createUser(u: User): Promise<User | null> {
    const n = await this.sql.run(`INSERT INTO users (${USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING`, [
      u.id,
      u.orgId,
      u.email,
      u.passwordHash,
      u.createdAt,
      u.disabledAt,
    ]);
    return n === 1 ? u : null;
  }

  async getUser(id: string): Promise<User | null> {
    const [r] = await this.sql.rows(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]);
    return r ? userFromRow(r) : null;
  }

  async getUserByEmail(email: string): Promise<User | null> {
    const [r] = await this.sql.rows(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`, [email]);
    return r ? userFromRow(r) : null;
  }

  async listUsers(orgId: string | null): Promise<User[]> {
    const found =
      orgId === null
        ? await this.sql.rows(`SELECT ${USER_COLUMNS} FROM users ORDER BY email`)
        : await this.sql.rows(`SELECT ${USER_COLUMNS} FROM users WHERE org_id = ? ORDER BY email`, [orgId]);
    return found.map(userFromRow);
  }

  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await this.sql.run('UPDATE users SET password_hash = ? WHERE id = ?', [passwordHash, userId]);
  }

  async disableUser(userId: string, at: string): Promise<void> {
    await this.sql.run('UPDATE users SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL', [at, userId]);
  }

  async createPasswordToken(hash: string, userId: string, expiresAt: string): Promise<void> {
    await this.sql.run('INSERT INTO password_tokens (hash, user_id, expires_at) VALUES (?, ?, ?)', [hash, userId, expiresAt]);
  }

  async consumePasswordToken(hash: string, now: string): Promise<string | null> {
    // One UPDATE: two concurrent uses of the same link cannot both succeed.
    const [r] = await this.sql.writeReturning(
      'UPDATE password_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id',
      [now, hash, now],
    );
    return r ? String(r.user_id) : null;
  }

  async passwordTokenUser(hash: string, now: string): Promise<string | null> {
    const [r] = await this.sql.rows('SELECT user_id FROM password_tokens WHERE hash = ? AND used_at IS NULL AND expires_at > ?', [hash, now]);
    return r ? String(r.user_id) : null;
  }

  async deletePasswordTokens(userId: string): Promise<void> {
    await this.sql.run('DELETE FROM password_tokens WHERE user_id = ? AND used_at IS NULL', [userId]);
  }

  async createSession(s: SessionRow): Promise<void> {
    await this.sql.run(`INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?)`, [s.hash, s.userId, s.csrfToken, s.createdAt, s.expiresAt]);
  }

  async getSession(hash: string): Promise<SessionRow | null> {
    const [r] = await this.sql.rows(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE hash = ?`, [hash]);
    return r ? sessionFromRow(r) : null;
  }

  async deleteSession(hash: string): Promise<void> {
    await this.sql.run('DELETE FROM sessions WHERE hash = ?', [hash]);
  }

  async deleteUserSessions(userId: string): Promise<void> {
    await this.sql.run('DELETE FROM sessions WHERE user_id = ?', [userId]);
  }

  async deleteExpiredSessions(now: string): Promise<void> {
    await this.sql.run('DELETE FROM sessions WHERE expires_at <= ?', [now]);
  }

  async recordSignInFailure(subject: string, at: string, forgetBefore: string): Promise<void> {
    await this.sql.run('DELETE FROM sign_in_failures WHERE subject = ? AND at < ?', [subject, forgetBefore]);
    await this.sql.run('INSERT INTO sign_in_failures (subject, at) VALUES (?, ?)', [subject, at]);
  }

  async signInFailures(subject: string, since: string): Promise<SignInFailures> {
    const [r] = await this.sql.rows('SELECT count(*) AS n, max(at) AS latest FROM sign_in_failures WHERE subject = ? AND at > ?', [subject, since]);
    return { count: Number(r?.n ?? 0), latest: r?.latest === null || r?.latest === undefined ? null : String(r.latest) };
  }

  async clearSignInFailures(subject: string): Promise<void> {
    await this.sql.run('DELETE FROM sign_in_failures WHERE subject = ?', [subject]);
  }

  async rememberSignInAddress(email: string, address: string, at: string, forgetBefore: string): Promise<void> {
    await this.sql.run('DELETE FROM sign_in_addresses WHERE last_at < ?', [forgetBefore]);
    await this.sql.run(
      'INSERT INTO sign_in_addresses (email, address, last_at) VALUES (?, ?, ?) ON CONFLICT (email, address) DO UPDATE SET last_at = excluded.last_at',
      [email, address, at],
    );
  }

  async knowsSignInAddress(email: string, address: string, since: string): Promise<boolean> {
    return (await this.sql.rows('SELECT 1 AS one FROM sign_in_addresses WHERE email = ? AND address = ? AND last_at > ?', [email, address, since])).length > 0;
  }

  async useNonce(nonce: string, at: string, forgetBefore: string): Promise<boolean> {
    await this.sql.run('DELETE FROM form_nonces WHERE at < ?', [forgetBefore]);
    return (await this.sql.run('INSERT INTO form_nonces (nonce, at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING', [nonce, at])) === 1;
  }

  async addAudit(e: AuditEntry): Promise<void> {
    await this.sql.run('INSERT INTO audit_log (org_id, actor, action, target, at) VALUES (?, ?, ?, ?, ?)', [e.orgId, e.actor, e.action, e.target, e.at]);
  }

  async listAudit(orgId: string, limit: number): Promise<AuditEntry[]> {
    const found = await this.sql.rows('SELECT org_id, actor, action, target, at FROM audit_log WHERE org_id = ? ORDER BY id DESC LIMIT ?', [orgId, limit]);
    return found.map((r) => ({ orgId: String(r.org_id), actor: String(r.actor), action: String(r.action), target: String(r.target), at: String(r.at) }));
  }
}
