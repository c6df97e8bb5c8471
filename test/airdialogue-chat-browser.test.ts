/**
 * The AirDialogue page in a real browser (playwright-core + Debian's chromium, as
 * test/browser-chat.test.ts): one dialogue per role with a tiny learned model pair trained here —
 * the context panel, the learned model's turns (the same as `AirChat` gives in process), the
 * action buttons and the score.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { noChromium, serverInBrowser } from './browser.js';
import { defaultWebDir, serveChats } from '../src/serve/server.js';
import { airChatBackend } from '../src/testbeds/airdialogue/chat/backend.js';
import { AirChat, describeAction } from '../src/testbeds/airdialogue/chat/chat.js';
import { tinyAirModels } from './airdialogue-chat-fixture.js';

/** The bit of the DOM the page function uses (this package compiles without DOM types). */
interface Dom {
  document: { querySelector(selector: string): { textContent: string | null } | null };
}

const skip = noChromium;

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-air-browser-'));
const models = skip ? null : tinyAirModels();
const rig = serverInBrowser(tmp, skip || !models, () => serveChats([{ testbed: 'airdialogue', chat: airChatBackend({ model: 'tiny.dgm', models: models! }) }], { logError: () => {}, webDir: defaultWebDir() }));

async function open(role: 'customer' | 'agent', seed: number): Promise<Page & { errors: string[] }> {
  const page = (await rig.context.newPage()) as Page & { errors: string[] };
  page.setDefaultTimeout(15_000);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push(m.text());
  });
  await page.goto(rig.base + '/airdialogue');
  await page.waitForSelector('[data-testid=status][data-ready=true]');
  await page.fill('[data-testid=seed]', String(seed));
  await page.selectOption('[data-testid=role]', role); // a new dialogue in that role (the customer is selected at first)
  if (role === 'customer') await page.click('[data-testid=new-dialogue]');
  await page.waitForFunction((s) => /context seed (\d+)/.exec((globalThis as unknown as Dom).document.querySelector('[data-testid=status]')?.textContent ?? '')?.[1] === String(s), seed);
  return page;
}

/** Sends a message; returns the model's new turn. */
async function say(page: Page, text: string): Promise<string> {
  const turns = page.locator('[data-testid=model-turn]');
  const n = await turns.count();
  await page.fill('[data-testid=input]', text);
  await page.press('[data-testid=input]', 'Enter');
  await turns.nth(n).waitFor();
  return (await turns.nth(n).textContent()) ?? '';
}

test('playing the agent in the browser: flight table, the learned customer, Book with a clicked flight, the score', { skip, timeout: 90_000 }, async () => {
  const page = await open('agent', 3);
  const local = new AirChat(models!, { role: 'agent', seed: 3 });
  const kb = local.context.kb;
  assert.equal(await page.locator('[data-testid=flight-row]').count(), 30);
  assert.equal(await page.locator('[data-testid=reservation]').textContent(), kb.reservation === 0 ? 'Reservation: none' : `Reservation: flight ${kb.reservation}`);
  assert.ok(await page.locator('[data-testid=actions]').isVisible());
  const first = local.turns[0]!.text;
  assert.equal(await page.locator('[data-testid=model-turn]').first().textContent(), `learned customer${first === '' ? '(says nothing)' : first}`);
  for (const text of ['Hello, how can I help you?', 'May I know your name?']) {
    const reply = local.say(text).turns[1]!.text;
    assert.equal(await say(page, text), `learned customer${reply === '' ? '(says nothing)' : reply}`);
  }
  const target = kb.kb[4]!;
  await page.locator(`[data-testid=flight-row][data-flight="${target.flight_number}"]`).click();
  assert.equal(await page.inputValue('[data-testid=action-flight]'), String(target.flight_number));
  // Without a name the page asks for it; nothing is sent, the dialogue goes on.
  await page.click('[data-testid=act-book]');
  assert.equal(await page.locator('[data-testid=notice]').last().textContent(), "type the customer's name: every action names them (it is scored)");
  assert.equal(await page.locator('[data-testid=score]').count(), 0);
  assert.ok(await page.locator('[data-testid=input]').isEnabled());
  await page.fill('[data-testid=action-name]', local.context.intent.name);
  await page.click('[data-testid=act-book]');
  await page.locator('[data-testid=score]').waitFor();
  const end = local.act({ status: 'book', name: local.context.intent.name, flight: [target.flight_number] }).end!;
  assert.equal(await page.locator('[data-testid=score]').textContent(), `Score ${end.score.total.toFixed(3)}`);
  assert.equal(await page.locator('[data-testid=score-exact]').textContent(), end.score.exact.total.toFixed(3));
  assert.equal(await page.locator('[data-testid=result-action]').textContent(), describeAction(end.action));
  assert.equal(await page.locator('[data-testid=result-expected]').textContent(), describeAction(end.expected));
  assert.ok(await page.locator('[data-testid=input]').isDisabled());
  assert.ok(await page.locator('[data-testid=act-cancel]').isDisabled());
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('playing the customer in the browser: the goal panel, the learned agent’s turns, its action scored', { skip, timeout: 90_000 }, async () => {
  const page = await open('customer', 7);
  const local = new AirChat(models!, { role: 'customer', seed: 7 });
  const intent = local.context.intent;
  assert.equal(await page.locator('[data-testid=intent-name]').textContent(), intent.name);
  assert.equal(await page.locator('[data-testid=intent-from]').textContent(), intent.departure_airport);
  assert.equal(await page.locator('[data-testid=intent-departure]').textContent(), `${intent.departure_month} ${intent.departure_day}, ${intent.departure_time ?? 'any time'}`);
  assert.ok(await page.locator('[data-testid=actions]').isHidden());
  for (let i = 0; i < 13 && !local.end; i++) {
    const text = i === 0 ? 'Hi, I would like to book a flight.' : `My name is ${intent.name}, I leave ${intent.departure_month} ${intent.departure_day}th.`;
    const turns = local.say(text).turns;
    assert.equal(await say(page, text), `learned agent${turns[1]!.text === '' ? '(says nothing)' : turns[1]!.text}`);
    if (turns[0]!.heard !== undefined) assert.equal(await page.locator('[data-testid=my-turn] .heard').last().textContent(), `read as: ${turns[0]!.heard}`);
  }
  assert.ok(local.end, 'the learned agent acted');
  await page.locator('[data-testid=score]').waitFor();
  assert.equal(await page.locator('[data-testid=score]').textContent(), `Score ${local.end.score.total.toFixed(3)}`);
  assert.equal(await page.locator('[data-testid=result-action]').textContent(), describeAction(local.end.action));
  assert.match((await page.locator('[data-testid=status]').textContent()) ?? '', /^dialogue over · score \d\.\d{3}$/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('at 360 px: no horizontal scroll, the goal reads in whole words, nothing covers "Ask the agent to finish"', { skip, timeout: 90_000 }, async () => {
  const page = await open('customer', 11);
  await page.setViewportSize({ width: 360, height: 740 });
  const geometry = await page.evaluate(() => {
    const d = (globalThis as unknown as { document: any }).document;
    const button = d.querySelector('[data-testid=act-finish]').getBoundingClientRect();
    const hit = d.elementFromPoint(button.left + button.width / 2, button.top + button.height / 2);
    const name = d.querySelector('[data-testid=intent-name]').getBoundingClientRect();
    return { scrollWidth: d.documentElement.scrollWidth, hitIsButton: hit?.dataset?.testid === 'act-finish', nameWidth: name.width, nameHeight: name.height, lineHeight: parseFloat((globalThis as any).getComputedStyle(d.querySelector('[data-testid=intent-name]')).lineHeight) };
  });
  assert.ok(geometry.scrollWidth <= 360, `page is ${geometry.scrollWidth} px wide at 360`);
  assert.ok(geometry.hitIsButton, 'something covers the finish button');
  assert.ok(geometry.nameWidth > 100 && geometry.nameHeight < 2.5 * geometry.lineHeight, `the name wraps: ${JSON.stringify(geometry)}`);
  await page.screenshot({ path: join(process.env.DIALOGYM_SCREENSHOTS ?? tmp, 'air-360.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.close();
  // The agent's side: the 30-flight table scrolls inside its panel, the page does not; the action buttons are reachable.
  const agent = await open('agent', 11);
  await agent.setViewportSize({ width: 360, height: 740 });
  const a = await agent.evaluate(() => {
    const d = (globalThis as unknown as { document: any }).document;
    const book = d.querySelector('[data-testid=act-book]');
    book.scrollIntoView();
    const r = book.getBoundingClientRect();
    return { scrollWidth: d.documentElement.scrollWidth, hitIsBook: d.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.dataset?.testid === 'act-book' };
  });
  assert.ok(a.scrollWidth <= 360, `agent page is ${a.scrollWidth} px wide at 360`);
  assert.ok(a.hitIsBook, 'something covers the Book button');
  await agent.screenshot({ path: join(process.env.DIALOGYM_SCREENSHOTS ?? tmp, 'air-360-agent.png'), fullPage: true });
  assert.deepEqual(agent.errors, []);
  await agent.close();
});

test('switching role then "New dialogue" at once shows only the new dialogue', { skip, timeout: 90_000 }, async () => {
  const page = await open('customer', 5);
  await page.fill('[data-testid=seed]', '');
  // Two starts race: the role change starts one, the click another before the first has answered
  // (each new session is answered 400 ms late, so the two overlap on any machine).
  await page.route('**/api/airdialogue/sessions', async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await page.selectOption('[data-testid=role]', 'agent');
  await page.click('[data-testid=new-dialogue]');
  await page.waitForSelector('[data-testid=status][data-ready=true]');
  await page.waitForTimeout(900); // let any answer of the discarded start arrive
  const seed = Number(/context seed (\d+)/.exec((await page.locator('[data-testid=status]').textContent()) ?? '')?.[1]);
  const local = new AirChat(models!, { role: 'agent', seed });
  const shown = await page.locator('#log li').allTextContents();
  assert.deepEqual(shown, local.turns.map((t) => `learned customer${t.text === '' ? '(says nothing)' : t.text}`));
  assert.deepEqual(page.errors, []);
  await page.close();
});
