/**
 * A person playing AirDialogue's agent sees the whole flight table on a desktop screen: price,
 * connections and class (what picks the flight) in view, not behind a sideways scroll in a narrow
 * pane — on the `serve --env … --as agent` page and on a study's participant page (`role: agent`).
 * On a phone the table still scrolls inside its frame, never the page. Debian's chromium through
 * playwright-core (test/browser.ts).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import '../src/index.js';
import { launchChromium, noChromium, pageWithErrors } from './browser.js';
import { bareServer, defaultWebDir } from '../src/serve/server.js';
import { registerEnvRoutes } from '../src/serve/env-routes.js';
import { studyConfig } from '../src/study/config.js';
import { createStudy, StudyStore } from '../src/study/store.js';
import { createStudyServer } from '../src/serve/study-server.js';
import { skipUnlessSqlite } from './shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-agent-view-'));
let context: BrowserContext;

before(async () => {
  if (noChromium) return;
  context = await launchChromium(tmp);
});
after(async () => {
  await context?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The bits of the DOM used here (this package compiles without DOM types). */
interface Box {
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { right: number };
}

/** The flight table's frame: how much of the table it hides, and the right edge of the price header against the window. */
function tableFit(page: Page): Promise<{ hidden: number; priceRight: number; window: number }> {
  return page.$eval('#view table', (t) => {
    const table = t as unknown as Box & { parentElement: Box; querySelectorAll(s: string): ArrayLike<Box & { textContent: string | null }> };
    const frame = table.parentElement;
    const price = [...(table.querySelectorAll('th') as unknown as (Box & { textContent: string | null })[])].find((th) => th.textContent === 'price');
    return { hidden: frame.scrollWidth - frame.clientWidth, priceRight: price?.getBoundingClientRect().right ?? Infinity, window: (globalThis as unknown as { innerWidth: number }).innerWidth };
  });
}

/** Whether the page itself scrolls sideways. */
const overflows = (page: Page): Promise<boolean> => page.evaluate(() => {
  const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
  return d.scrollWidth > d.clientWidth;
});

/** Opens the page (`open` gets it to the flight table), then checks the table at 1280 px and the page at 390 px. */
async function checkWidths(open: (page: Page) => Promise<void>): Promise<void> {
  const { page, errors } = await pageWithErrors(context);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page);
    await page.waitForSelector('#view table');
    const wide = await tableFit(page);
    assert.equal(wide.hidden, 0, 'the flight table hides columns at 1280 px');
    assert.ok(wide.priceRight <= wide.window, `the price column is off screen at 1280 px (${wide.priceRight} > ${wide.window})`);
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await overflows(page), false, 'the page scrolls sideways at 390 px');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
}

test('serve --env airdialogue-v2 --as agent: the whole flight table in view at 1280 px', { skip: noChromium }, async () => {
  const server = bareServer({});
  registerEnvRoutes(server.app, { envId: 'airdialogue-v2', role: 'agent', firstSeed: 1, webDir: defaultWebDir(), idleMs: 60_000 });
  const url = await server.listen(0, '127.0.0.1');
  try {
    await checkWidths(async (page) => void (await page.goto(`${url}/env`)));
  } finally {
    await server.close();
  }
});

test('a study where people play the AirDialogue agent: the whole flight table in view at 1280 px', { skip: noChromium || skipUnlessSqlite() }, async () => {
  const made = createStudy(join(tmp, 'study'), studyConfig({ env: 'airdialogue-v2', role: 'agent', participants: 1, sessionsPerParticipant: 1, seed: 1 }));
  const store = StudyStore.open(made.dir);
  const server = createStudyServer(store);
  const url = await server.listen(0, '127.0.0.1');
  try {
    await checkWidths(async (page) => {
      await page.goto(`${url}/p/${made.participants[0]?.code as string}`);
      await page.getByTestId('start').click();
    });
  } finally {
    await server.close();
    store.close();
  }
});
