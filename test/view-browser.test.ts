/**
 * `dialogym view` in a real browser (playwright-core + Debian's chromium) at 1280 and 390 px: a run
 * of 1,000 episodes with its summary, the filters (outcome, failure reason, text), an episode turn by
 * turn; the report with its table and chart; two runs side by side. Geometry is checked (no
 * horizontal scroll at 390 px, the two runs beside each other at 1280 and stacked at 390) and a
 * screenshot of each view is written (to $DIALOGYM_SCREENSHOTS when set).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { noChromium, serverInBrowser } from './browser.js';
import { createViewServer, readTranscripts } from '../src/serve/view.js';
import { writeViewFolder } from './view-fixture.js';

const skip = noChromium;
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-view-browser-'));
const shots = process.env.DIALOGYM_SCREENSHOTS ?? join(tmp, 'shots');
let bad: string;

const rig = serverInBrowser(tmp, skip, async () => {
  mkdirSync(shots, { recursive: true });
  bad = (await writeViewFolder(join(tmp, 'results'))).bad;
  return createViewServer(join(tmp, 'results'), { logError: () => {} });
});

interface Dom {
  document: any;
}

async function open(hash: string, width: number): Promise<Page & { errors: string[] }> {
  const page = (await rig.context.newPage()) as Page & { errors: string[] };
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  page.setDefaultTimeout(15_000);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => void (m.type() === 'error' && page.errors.push(m.text())));
  page.on('request', (r) => void (!r.url().startsWith(rig.base) && page.errors.push(`external request: ${r.url()}`)));
  await page.goto(`${rig.base}/${hash}`);
  await page.waitForSelector('body[data-ready=true]');
  return page;
}

const scrollWidth = (page: Page): Promise<number> => page.evaluate(() => (globalThis as unknown as Dom).document.documentElement.scrollWidth);

async function matched(page: Page): Promise<string> {
  return (await page.locator('[data-testid=matched]').textContent()) ?? '';
}

for (const width of [1280, 390]) {
  test(`a run of 1,000 episodes at ${width} px: summary, filters, an episode turn by turn`, { skip, timeout: 120_000 }, async () => {
    const records = readTranscripts(bad);
    const page = await open('#run/0', width);
    assert.match((await page.locator('main h2').first().textContent()) ?? '', /runs\/flaky\.jsonl/);
    const success = records.filter((r) => r.success).length / records.length;
    assert.equal(await page.locator('[data-testid=summary-success]').textContent(), success.toFixed(4));
    assert.equal(await matched(page), '1000 of 1000 episodes');
    assert.equal(await page.locator('[data-testid=episode-row]').count(), 50);
    // At 390 px the list of runs is a select in the header, and nothing scrolls sideways.
    if (width < 600) {
      assert.ok(await page.locator('[data-testid=nav]').isHidden());
      assert.ok(await page.locator('[data-testid=jump]').isVisible());
    } else assert.ok(await page.locator('[data-testid=nav-run]').first().isVisible());
    assert.ok((await scrollWidth(page)) <= width, `page is ${await scrollWidth(page)} px wide at ${width}`);
    // Outcome, then a failure reason, then text.
    await page.selectOption('[data-testid=filter-outcome]', 'failure');
    const failures = records.filter((r) => !r.success);
    await page.waitForFunction((t) => (globalThis as unknown as Dom).document.querySelector('[data-testid=matched]')?.textContent === t, `${failures.length} of 1000 episodes`);
    const reason = 'api_call';
    await page.selectOption('[data-testid=filter-failure]', reason);
    const n = records.filter((r) => r.failure === reason).length;
    await page.waitForFunction((t) => (globalThis as unknown as Dom).document.querySelector('[data-testid=matched]')?.textContent === t, `${n} of 1000 episodes`);
    for (const t of await page.locator('[data-testid=episode-row] td:nth-child(8)').allTextContents()) assert.equal(t, reason);
    await page.selectOption('[data-testid=filter-failure]', '');
    await page.fill('[data-testid=filter-q]', 'turtles');
    const turtles = records.filter((r) => r.actions.includes('i like turtles')).length;
    await page.waitForFunction((t) => (globalThis as unknown as Dom).document.querySelector('[data-testid=matched]')?.textContent === t, `${turtles} of 1000 episodes`);
    // An episode, turn by turn.
    await page.locator('[data-testid=episode-row]').first().click();
    await page.locator('[data-testid=episode-card]').waitFor();
    assert.match((await page.locator('[data-testid=outcome]').textContent()) ?? '', /^failure: max turns$/);
    assert.ok((await page.locator('[data-testid=turn-agent]').count()) > 10);
    assert.ok((await page.locator('[data-testid=turn-user]').count()) > 2);
    assert.ok((await page.locator('[data-testid=turn-agent]', { hasText: 'i like turtles' }).count()) > 0);
    assert.ok((await scrollWidth(page)) <= width, `page is ${await scrollWidth(page)} px wide at ${width} with an episode open`);
    await page.screenshot({ path: join(shots, `view-run-${width}.png`), fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`the folder opened without a hash at ${width} px: the report first (not the first run)`, { skip, timeout: 60_000 }, async () => {
    const page = await open('', width);
    await page.locator('[data-testid=report-table]').waitFor();
    assert.equal(await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash), '#report/0');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`the report at ${width} px: its table and its chart`, { skip, timeout: 60_000 }, async () => {
    const page = await open('#report/0', width);
    await page.locator('[data-testid=report-table]').waitFor();
    assert.deepEqual(await page.locator('[data-testid=report-table] tbody tr td:first-child').allTextContents(), ['T1', 'T5-OOV']);
    const img = await page.locator('[data-testid=report-chart]').evaluate((e: any) => ({ w: e.naturalWidth, shown: e.getBoundingClientRect().width }));
    assert.equal(img.w, 640);
    // The chart opens full size (on a phone a wide chart is shrunk to the screen).
    assert.equal(await page.locator('[data-testid=report-chart-link]').getAttribute('href'), await page.locator('[data-testid=report-chart]').getAttribute('src'));
    if (width === 1280) assert.match((await page.locator('[data-testid=folder]').textContent()) ?? '', / · 2 runs · 1 report$/);
    assert.ok(img.shown > 100 && img.shown <= width, JSON.stringify(img));
    await page.screenshot({ path: join(shots, `view-report-${width}.png`), fullPage: true });
    assert.ok((await scrollWidth(page)) <= width, `page is ${await scrollWidth(page)} px wide at ${width}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`two runs side by side at ${width} px`, { skip, timeout: 60_000 }, async () => {
    const page = await open('#run/1', width);
    await page.selectOption('[data-testid=compare-with]', '0');
    await page.locator('[data-testid=differing-row]').first().waitFor();
    assert.equal(await page.locator('[data-testid=compare-summary-row]').count(), 2);
    assert.deepEqual(await page.locator('[data-testid=compare-summary-success]').allTextContents(), ['1.0000', (readTranscripts(bad).filter((r) => r.success).length / 1000).toFixed(4)]);
    await page.locator('[data-testid=differing-row]').first().click();
    await page.waitForFunction(() => (globalThis as unknown as Dom).document.querySelectorAll('[data-testid=compare-episodes] [data-testid=episode-card]').length === 2);
    // The two transcripts of the same task: beside each other on a wide screen, one above the other at 390 px.
    const boxes = await page.evaluate(() => [...(globalThis as unknown as Dom).document.querySelectorAll('[data-testid=compare-episodes] [data-testid=episode-card]')].map((e: any) => e.getBoundingClientRect()).map((r: any) => ({ left: r.left, top: r.top })));
    if (width < 600) assert.ok(boxes[1]!.top > boxes[0]!.top && Math.abs(boxes[1]!.left - boxes[0]!.left) < 2, JSON.stringify(boxes));
    else assert.ok(boxes[1]!.left > boxes[0]!.left + 200 && Math.abs(boxes[1]!.top - boxes[0]!.top) < 2, JSON.stringify(boxes));
    assert.deepEqual(await page.locator('[data-testid=compare-episodes] [data-testid=outcome]').allTextContents(), ['success', (await page.locator('[data-testid=compare-episodes] [data-testid=outcome]').nth(1).textContent()) as string]);
    assert.match((await page.locator('[data-testid=compare-episodes] [data-testid=outcome]').nth(1).textContent()) ?? '', /^failure: /);
    assert.ok((await scrollWidth(page)) <= width);
    await page.screenshot({ path: join(shots, `view-compare-${width}.png`), fullPage: false });
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}
