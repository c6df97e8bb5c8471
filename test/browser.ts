/**
 * Debian's chromium for the browser tests, driven by playwright-core (which never downloads a
 * browser; `.ci/run` installs chromium with apt when it is missing). The flags keep chromium off
 * the network this machine does not have (background networking, component updates, sync).
 */
import { existsSync, rmSync } from 'node:fs';
import { after, before } from 'node:test';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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

/** A new page of `context` (15 s default timeout) and the console errors it logs, to assert none at the end. */
export async function pageWithErrors(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  return { page, errors };
}

/** A server a browser test opens. */
export interface ListeningServer {
  listen(port: number, host: string): Promise<string>;
  close(): Promise<unknown>;
}

/**
 * A browser test of one server: before the tests, `start()` makes the server, it listens on
 * 127.0.0.1 (its address in `rig.base`) and chromium starts under `tmp` (`rig.context`); after
 * them, both close and `tmp` is removed. Nothing starts or stops when `skip` is set.
 */
export function serverInBrowser(tmp: string, skip: unknown, start: () => ListeningServer | Promise<ListeningServer>): { readonly base: string; readonly context: BrowserContext } {
  const rig = { base: '', context: undefined as unknown as BrowserContext };
  let server: ListeningServer | undefined;
  before(async () => {
    if (skip) return;
    server = await start();
    rig.base = await server.listen(0, '127.0.0.1');
    rig.context = await launchChromium(tmp);
  });
  after(async () => {
    if (skip) return;
    await rig.context?.close();
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  return rig;
}
