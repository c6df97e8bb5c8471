/**
 * Debian's chromium for the browser tests, driven by playwright-core (which never downloads a
 * browser; `.ci/run` installs chromium with apt when it is missing). The flags keep chromium off
 * the network this machine does not have (background networking, component updates, sync).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** The chromium binary (`$CHROMIUM_PATH`, else /usr/bin/chromium). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests skip (no chromium), or false. */
export const noChromium: string | false = existsSync(CHROMIUM) ? false : `${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium; .ci/run does it in CI)`;

/** A headless chromium with a fresh profile under `dir`. */
export function launchChromium(dir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    timeout: 30_000,
  });
}
