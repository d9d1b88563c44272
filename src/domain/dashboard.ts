/** Dashboard users and the audit log of what they (and the operator) did. */

export interface User {
  id: string;
  orgId: string;
  email: string;
  /** null until the user has set a password through their one-time link. */
  passwordHash: string | null;
  createdAt: string;
  disabledAt: string | null;
}

export interface AuditEntry {
  orgId: string;
  /** The user's email, or "operator" for the CLI. */
  actor: string;
  action: string;
  target: string;
  at: string;
}
