/** The audit log and the change-password page. */
import type { AuditEntry } from '../../domain/dashboard.ts';
import type { ActiveSession } from '../../services/dashboard/sessions.ts';
import { MIN_PASSWORD_LENGTH } from '../../services/dashboard/passwords.ts';
import { html } from '../../html.ts';
import { csrfField, errorBox, page } from '../layout.ts';

const ACTIONS: Record<string, string> = {
  'key.created': 'created key',
  'key.revoked': 'revoked key',
  'key.rolled': 'rolled key',
  'key.exposed': 'key exposed',
  'settings.changed': 'changed settings',
  'password.changed': 'changed password',
  'password.set': 'set password',
  'user.created': 'created user',
  'user.disabled': 'disabled user',
};

export function auditPage(session: ActiveSession, entries: AuditEntry[]): string {
  return page({
    title: 'Audit log',
    session,
    current: 'audit',
    body: html`<section class="card">
  ${
    entries.length === 0
      ? html`<p>Nothing recorded yet.</p>`
      : html`<div class="scroll"><table class="stack">
    <thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th></tr></thead>
    <tbody>${entries.map(
      (e) => html`<tr>
      <td data-label="When (UTC)"><time datetime="${e.at}">${e.at.slice(0, 19).replace('T', ' ')}</time></td>
      <td data-label="Who">${e.actor}</td>
      <td data-label="What">${ACTIONS[e.action] ?? e.action}</td>
      <td data-label="On">${e.target}</td>
    </tr>`,
    )}</tbody>
  </table></div>`
  }
  <p class="hint">The latest 200 changes made to this organisation, newest first.</p>
</section>`,
  });
}

export function passwordPage(session: ActiveSession, o: { error?: string; done?: boolean } = {}): string {
  return page({
    title: 'Change password',
    session,
    current: 'password',
    body: html`
${o.done ? html`<p class="notice" role="status">Your password was changed. Other sessions were signed out.</p>` : ''}
${errorBox(o.error)}
<form method="post" action="/dashboard/password" class="card narrow">
  ${csrfField(session.csrfToken)}
  <label for="current">Current password</label>
  <input id="current" name="current" type="password" autocomplete="current-password" required>
  <label for="next">New password</label>
  <input id="next" name="next" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required aria-describedby="next-rule">
  <p id="next-rule" class="hint">At least ${MIN_PASSWORD_LENGTH} characters.</p>
  <label for="confirm">Repeat the new password</label>
  <input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
  <button type="submit">Change password</button>
</form>`,
  });
}
