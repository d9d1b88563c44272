/** DashboardStore over PostgreSQL: the twin of the SQLite one, on the store's pool. */
import type pg from 'pg';
import type { AuditEntry, DashboardStore, SessionRow, SignInFailures, User } from '../dashboard-store.ts';
import { exec, rows } from './pg-client.ts';
import { sessionFromRow, userFromRow } from '../row-mappers.ts';

const USER_COLUMNS = 'id, org_id, email, password_hash, created_at, disabled_at';

export class PostgresDashboardStore implements DashboardStore {
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async createUser(u: User): Promise<User | null> {
    const n = await exec(
      this.pool,
      `INSERT INTO users (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email) DO NOTHING`,
      [u.id, u.orgId, u.email, u.passwordHash, u.createdAt, u.disabledAt],
    );
    return n === 1 ? u : null;
  }

  async getUser(id: string): Promise<User | null> {
    const [r] = await rows(this.pool, `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
    return r ? userFromRow(r) : null;
  }

  async getUserByEmail(email: string): Promise<User | null> {
    const [r] = await rows(this.pool, `SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email]);
    return r ? userFromRow(r) : null;
  }

  async listUsers(orgId: string | null): Promise<User[]> {
    const found = orgId === null
      ? await rows(this.pool, `SELECT ${USER_COLUMNS} FROM users ORDER BY email`)
      : await rows(this.pool, `SELECT ${USER_COLUMNS} FROM users WHERE org_id = $1 ORDER BY email`, [orgId]);
    return found.map(userFromRow);
  }

  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await exec(this.pool, 'UPDATE users SET password_hash = $1 WHERE id = $2', [passwordHash, userId]);
  }

  async disableUser(userId: string, at: string): Promise<void> {
    await exec(this.pool, 'UPDATE users SET disabled_at = $1 WHERE id = $2 AND disabled_at IS NULL', [at, userId]);
  }

  async createPasswordToken(hash: string, userId: string, expiresAt: string): Promise<void> {
    await exec(this.pool, 'INSERT INTO password_tokens (hash, user_id, expires_at) VALUES ($1, $2, $3)', [hash, userId, expiresAt]);
  }

  async consumePasswordToken(hash: string, now: string): Promise<string | null> {
    // One UPDATE: two concurrent uses of the same link cannot both succeed.
    const [r] = await rows(
      this.pool,
      'UPDATE password_tokens SET used_at = $1 WHERE hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING user_id',
      [now, hash],
    );
    return r ? String(r.user_id) : null;
  }

  async createSession(s: SessionRow): Promise<void> {
    await exec(this.pool, 'INSERT INTO sessions (hash, user_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
      s.hash,
      s.userId,
      s.csrfToken,
      s.createdAt,
      s.expiresAt,
    ]);
  }

  async getSession(hash: string): Promise<SessionRow | null> {
    const [r] = await rows(this.pool, 'SELECT hash, user_id, csrf_token, created_at, expires_at FROM sessions WHERE hash = $1', [hash]);
    return r ? sessionFromRow(r) : null;
  }

  async deleteSession(hash: string): Promise<void> {
    await exec(this.pool, 'DELETE FROM sessions WHERE hash = $1', [hash]);
  }

  async deletePasswordTokens(userId: string): Promise<void> {
    await exec(this.pool, 'DELETE FROM password_tokens WHERE user_id = $1 AND used_at IS NULL', [userId]);
  }

  async deleteUserSessions(userId: string): Promise<void> {
    await exec(this.pool, 'DELETE FROM sessions WHERE user_id = $1', [userId]);
  }

  async deleteExpiredSessions(now: string): Promise<void> {
    await exec(this.pool, 'DELETE FROM sessions WHERE expires_at <= $1', [now]);
  }

  async recordSignInFailure(subject: string, at: string, forgetBefore: string): Promise<void> {
    await exec(this.pool, 'DELETE FROM sign_in_failures WHERE subject = $1 AND at < $2', [subject, forgetBefore]);
    await exec(this.pool, 'INSERT INTO sign_in_failures (subject, at) VALUES ($1, $2)', [subject, at]);
  }

  async rememberSignInAddress(email: string, address: string, at: string, forgetBefore: string): Promise<void> {
    await exec(this.pool, 'DELETE FROM sign_in_addresses WHERE last_at < $1', [forgetBefore]);
    await exec(
      this.pool,
      'INSERT INTO sign_in_addresses (email, address, last_at) VALUES ($1, $2, $3) ON CONFLICT (email, address) DO UPDATE SET last_at = excluded.last_at',
      [email, address, at],
    );
  }

  async knowsSignInAddress(email: string, address: string, since: string): Promise<boolean> {
    return (await rows(this.pool, 'SELECT 1 FROM sign_in_addresses WHERE email = $1 AND address = $2 AND last_at > $3', [email, address, since])).length > 0;
  }

  async signInFailures(subject: string, since: string): Promise<SignInFailures> {
    const [r] = await rows<{ n: string; latest: string | null }>(this.pool, 'SELECT count(*) AS n, max(at) AS latest FROM sign_in_failures WHERE subject = $1 AND at > $2', [subject, since]);
    return { count: Number(r?.n ?? 0), latest: r?.latest ?? null };
  }

  async clearSignInFailures(subject: string): Promise<void> {
    await exec(this.pool, 'DELETE FROM sign_in_failures WHERE subject = $1', [subject]);
  }

  async useNonce(nonce: string, at: string, forgetBefore: string): Promise<boolean> {
    await exec(this.pool, 'DELETE FROM form_nonces WHERE at < $1', [forgetBefore]);
    return (await exec(this.pool, 'INSERT INTO form_nonces (nonce, at) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING', [nonce, at])) === 1;
  }

  async addAudit(e: AuditEntry): Promise<void> {
    await exec(this.pool, 'INSERT INTO audit_log (org_id, actor, action, target, at) VALUES ($1, $2, $3, $4, $5)', [e.orgId, e.actor, e.action, e.target, e.at]);
  }

  async listAudit(orgId: string, limit: number): Promise<AuditEntry[]> {
    const found = await rows(this.pool, 'SELECT org_id, actor, action, target, at FROM audit_log WHERE org_id = $1 ORDER BY id DESC LIMIT $2', [orgId, limit]);
    return found.map((r) => ({ orgId: String(r.org_id), actor: String(r.actor), action: String(r.action), target: String(r.target), at: String(r.at) }));
  }
}
