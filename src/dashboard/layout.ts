/** The frame of every dashboard page. */
import type { ActiveSession } from '../services/dashboard/sessions.ts';
import { html, type SafeHtml } from '../html.ts';

export interface PageOptions {
  title: string;
  session?: ActiveSession | null;
  /** Which navigation entry is current. */
  current?: 'overview' | 'keys' | 'requests' | 'audit' | 'settings' | 'password';
  /** Shown above the page's title: the organisation's keys that leaked and still work. */
  banner?: SafeHtml;
  body: SafeHtml;
}

const NAV = [
  ['overview', '/dashboard', 'Overview'],
  ['keys', '/dashboard/keys', 'API keys'],
  ['requests', '/dashboard/requests', 'Requests'],
  ['audit', '/dashboard/audit', 'Audit log'],
  ['settings', '/dashboard/settings', 'Settings'],
  ['password', '/dashboard/password', 'Password'],
] as const;

export function page(o: PageOptions): string {
  const s = o.session;
  const nav = s
    ? html`<nav aria-label="Dashboard">
        <ul>
          ${NAV.map(([id, href, label]) => html`<li><a href="${href}"${o.current === id ? html` aria-current="page"` : ''}>${label}</a></li>`)}
        </ul>
        <form method="post" action="/dashboard/logout" class="inline">
          <input type="hidden" name="_csrf" value="${s.csrfToken}">
          <button type="submit" class="link">Sign out</button>
        </form>
      </nav>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · Codebook</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script src="/dashboard/assets/dashboard.js" defer></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/dashboard">Codebook</a>
  ${s ? html`<span class="who">${s.user.email} · ${s.org.slug}</span>` : ''}
  ${nav}
</header>
<main id="main">
${o.banner ?? ''}
<h1>${o.title}</h1>
${o.body}
</main>
</body>
</html>`.value;
}

export function errorBox(message: string | null | undefined): SafeHtml | '' {
  return message ? html`<p class="error" role="alert">${message}</p>` : '';
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}
