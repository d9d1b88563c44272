/**
 * Debian's chromium driven by playwright-core. Never downloads a browser:
 * without /usr/bin/chromium the browser tests skip with a line saying so,
 * except under CI, where they fail (.ci/run installs it).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { requiredInCi } from './services.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

/** The `skip` option of browser tests: false when chromium is there; under CI its absence throws (requiredInCi). */
export function chromiumMissing(): string | false {
  return requiredInCi(existsSync(CHROMIUM), `chromium not installed at ${CHROMIUM} (apt-get install -y chromium); browser tests skipped`);
}

/** extraArgs: more chromium switches, e.g. --host-resolver-rules to reach the service under another name. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      ...extraArgs,
    ],
  });
}

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
