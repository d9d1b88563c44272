/** DashboardStore over node:sqlite, sharing the store's connection. */
import type { AuditEntry, DashboardStore, SessionRow, SignInFailures, User } from '../dashboard-store.ts';
import { whenUnlocked } from './busy.ts';
import { SqliteStatements } from './statements.ts';
import { sessionFromRow, userFromRow, type Row } from '../row-mappers.ts';

export class SqliteDashboardStore extends SqliteStatements implements DashboardStore {

  async createUser(u: User): Promise<User | null> {
    const result = await this.write(
      'INSERT INTO users (id, org_id, email, password_hash, created_at, disabled_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING',
      ...[u.id, u.orgId, u.email, u.passwordHash, u.createdAt, u.disabledAt],
    );
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
    await this.write('UPDATE users SET password_hash = ? WHERE id = ?', passwordHash, userId);
  }

  async disableUser(userId: string, at: string): Promise<void> {
    await this.write('UPDATE users SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL', at, userId);
  }

  async createPasswordToken(hash: string, userId: string, expiresAt: string): Promise<void> {
    await this.write('INSERT INTO password_tokens (hash, user_id, expires_at) VALUES (?, ?, ?)', hash, userId, expiresAt);
  }

  async consumePasswordToken(hash: string, now: string): Promise<string | null> {
    const consume = this.stmt('UPDATE password_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id');
    const r = (await whenUnlocked(this.db, () => consume.get(now, hash, now))) as Row | undefined;
    return r ? String(r.user_id) : null;
  }

  async deletePasswordTokens(userId: string): Promise<void> {
    await this.write('DELETE FROM password_tokens WHERE user_id = ? AND used_at IS NULL', userId);
  }

  async createSession(s: SessionRow): Promise<void> {
    await this.write(
      'INSERT INTO sessions (hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      s.hash,
      s.userId,
      s.csrfToken,
      s.createdAt,
      s.expiresAt,
    );
  }

  async getSession(hash: string): Promise<SessionRow | null> {
    const r = this.stmt('SELECT * FROM sessions WHERE hash = ?').get(hash) as Row | undefined;
    return r ? sessionFromRow(r) : null;
  }

  async deleteSession(hash: string): Promise<void> {
    await this.write('DELETE FROM sessions WHERE hash = ?', hash);
  }

  async deleteUserSessions(userId: string): Promise<void> {
    await this.write('DELETE FROM sessions WHERE user_id = ?', userId);
  }

  async deleteExpiredSessions(now: string): Promise<void> {
    await this.write('DELETE FROM sessions WHERE expires_at <= ?', now);
  }

  async recordSignInFailure(subject: string, at: string, forgetBefore: string): Promise<void> {
    await this.write('DELETE FROM sign_in_failures WHERE subject = ? AND at < ?', subject, forgetBefore);
    await this.write('INSERT INTO sign_in_failures (subject, at) VALUES (?, ?)', subject, at);
  }

  async signInFailures(subject: string, since: string): Promise<SignInFailures> {
    const r = this.stmt('SELECT count(*) AS n, max(at) AS latest FROM sign_in_failures WHERE subject = ? AND at > ?').get(subject, since) as Row;
    return { count: Number(r.n), latest: r.latest === null ? null : String(r.latest) };
  }

  async rememberSignInAddress(email: string, address: string, at: string, forgetBefore: string): Promise<void> {
    await this.write('DELETE FROM sign_in_addresses WHERE last_at < ?', forgetBefore);
    await this.write(
      'INSERT INTO sign_in_addresses (email, address, last_at) VALUES (?, ?, ?) ON CONFLICT (email, address) DO UPDATE SET last_at = excluded.last_at',
      email,
      address,
      at,
    );
  }

  async knowsSignInAddress(email: string, address: string, since: string): Promise<boolean> {
    return this.stmt('SELECT 1 FROM sign_in_addresses WHERE email = ? AND address = ? AND last_at > ?').get(email, address, since) !== undefined;
  }

  async clearSignInFailures(subject: string): Promise<void> {
    await this.write('DELETE FROM sign_in_failures WHERE subject = ?', subject);
  }

  async useNonce(nonce: string, at: string, forgetBefore: string): Promise<boolean> {
    await this.write('DELETE FROM form_nonces WHERE at < ?', forgetBefore);
    return Number((await this.write('INSERT INTO form_nonces (nonce, at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING', nonce, at)).changes) === 1;
  }

  async addAudit(e: AuditEntry): Promise<void> {
    await this.write('INSERT INTO audit_log (org_id, actor, action, target, at) VALUES (?, ?, ?, ?, ?)', e.orgId, e.actor, e.action, e.target, e.at);
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
