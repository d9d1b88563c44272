/** Sign-in and set-password pages (no session yet). */
import { html } from '../../html.ts';
import { csrfField, errorBox, page } from '../layout.ts';
import { MIN_PASSWORD_LENGTH } from '../../services/dashboard/passwords.ts';

export function loginPage(o: { csrf: string; error?: string; email?: string; notice?: string }): string {
  return page({
    title: 'Sign in',
    body: html`
${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : ''}
${errorBox(o.error)}
<form method="post" action="/dashboard/login" class="card narrow">
  ${csrfField(o.csrf)}
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${o.email ?? ''}" autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
<p class="hint">Accounts are created by your operator, who sends you a one-time link to set your password.</p>`,
  });
}

export function setPasswordPage(o: { csrf: string; token: string; error?: string }): string {
  return page({
    title: 'Set your password',
    body: html`
${errorBox(o.error)}
<form method="post" action="/dashboard/set-password" class="card narrow">
  ${csrfField(o.csrf)}
  <input type="hidden" name="token" value="${o.token}">
  <label for="password">New password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required aria-describedby="password-rule">
  <p id="password-rule" class="hint">At least ${MIN_PASSWORD_LENGTH} characters.</p>
  <label for="confirm">Repeat the password</label>
  <input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
  <button type="submit">Set password</button>
</form>`,
  });
}

export function messagePage(title: string, message: string): string {
  return page({ title, body: html`<p>${message}</p><p><a href="/dashboard">Back to the dashboard</a></p>` });
}
