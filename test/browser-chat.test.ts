/**
 * The web UI in a real browser: playwright-core drives Debian's chromium (/usr/bin/chromium; `.ci/run`
 * installs it with apt when missing). Books a table end to end through the page with the rules bot
 * and with a trained HCN (trained here in seconds on generated task-5 dialogs) on a SQLite KB, and
 * checks the KB table, the explanation panels (rule and state; template, entities and action mask)
 * and the attention heat map render.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { babiDir, skipUnless } from './shared-data.js';
import { trainTinyHcn } from './tiny-hcn.js';
import { readBabiKb } from '../src/formats/babi.js';
import type { Turn } from '../src/core/dialog.js';
import { importKbFile, SqliteKbStore } from '../src/testbeds/restaurant/kb-sqlite.js';
import { createRulesBot } from '../src/testbeds/restaurant/rules/rules.js';
import type { Ranker } from '../src/rankers/ranker.js';
import { chatModelOf } from '../src/serve/chat-model.js';
import type { AttentionSource } from '../src/serve/explanation.js';
import { createServer, type ChatServer } from '../src/serve/server.js';

/** The bits of the DOM the page functions use (this package compiles without DOM types). */
interface Dom {
  document: { querySelectorAll(selector: string): { length: number } };
  getComputedStyle(e: unknown): { backgroundColor: string };
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = skipUnless(babiDir) || (existsSync(CHROMIUM) ? false : `${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium; .ci/run does it in CI)`);

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-browser-'));
let store: SqliteKbStore;
let rulesServer: ChatServer;
let attnServer: ChatServer;
let hcnServer: ChatServer;
let hcnDev = 0;
let context: BrowserContext;

/**
 * A small real attention ranker for the heat-map check: one hop of softmax attention over the
 * memories, scored by word overlap with the last user turn; candidates scored by overlap with the
 * attention-weighted memory words.
 */
function overlapRanker(): Ranker & AttentionSource {
  const words = (s: string): Set<string> => new Set(s.split(/\s+/).filter(Boolean));
  const split = (h: readonly Turn[]): { query: Set<string>; mems: Turn[] } => {
    const last = h.at(-1);
    return last?.speaker === 'user' ? { query: words(last.text), mems: h.slice(0, -1) } : { query: new Set(), mems: h.slice() };
  };
  const weights = (h: readonly Turn[]): { mems: Turn[]; p: number[] } => {
    const { query, mems } = split(h);
    const s = mems.map((m) => [...words(m.text)].filter((w) => query.has(w)).length);
    const mx = Math.max(0, ...s);
    const e = s.map((x) => Math.exp(x - mx));
    const z = e.reduce((a, b) => a + b, 0);
    return { mems, p: e.map((x) => x / z) };
  };
  return {
    name: 'overlap-attention',
    rank(history, candidates) {
      const { mems, p } = weights(history);
      const { query } = split(history);
      const out = new Float32Array(candidates.length);
      candidates.forEach((c, i) => {
        const cw = words(c);
        let s = 0;
        mems.forEach((m, j) => {
          for (const w of words(m.text)) if (cw.has(w)) s += p[j] as number;
        });
        for (const w of query) if (cw.has(w)) s += 1;
        out[i] = s;
      });
      return out;
    },
    attention(history) {
      const { mems, p } = weights(history);
      return { memories: mems.map((t) => `${t.speaker}: ${t.text}`), hops: [p] };
    },
  };
}

before(async () => {
  if (skip) return;
  const kbFile = join(tmp, 'kb.sqlite');
  importKbFile(join(babiDir, 'dialog-babi-kb-all.txt'), kbFile);
  store = SqliteKbStore.open(kbFile);
  const kb = { store, dialect: store.dialect };
  rulesServer = createServer(chatModelOf(createRulesBot()), kb);
  const candidates = ['hello what can i help you with today', "i'm on it", 'any preference on a type of cuisine', 'where should it be'];
  attnServer = createServer(chatModelOf(overlapRanker(), { candidates }), kb);
  const hcn = trainTinyHcn(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts);
  hcnDev = hcn.dev;
  hcnServer = createServer(chatModelOf(hcn.model), kb);
  context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    timeout: 30_000,
  });
});

after(async () => {
  if (skip) return;
  await context?.close();
  await rulesServer?.close();
  await attnServer?.close();
  await hcnServer?.close();
  store?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function open(server: ChatServer): Promise<Page> {
  const base = await server.listen(0, '127.0.0.1');
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  (page as Page & { errors: string[] }).errors = errors;
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid=status][data-ready=true]');
  return page;
}

/** Types a message, waits for the bot's answer; returns the new bot/api_call bubbles' texts. */
async function say(page: Page, text: string): Promise<string[]> {
  const before = await page.locator('[data-testid=bot], [data-testid=api-call], [data-testid=notice]').count();
  await page.fill('[data-testid=input]', text);
  await page.press('[data-testid=input]', 'Enter');
  await page.waitForFunction((n) => (globalThis as unknown as Dom).document.querySelectorAll('[data-testid=bot], [data-testid=api-call], [data-testid=notice]').length > n, before);
  const all = await page.locator('[data-testid=bot], [data-testid=api-call], [data-testid=notice]').allTextContents();
  return all.slice(before);
}

test('books a table end to end through the web UI (rules bot, SQLite KB)', { skip, timeout: 60_000 }, async () => {
  const page = await open(rulesServer);
  assert.deepEqual(await say(page, 'hello'), ['hello what can i help you with today']);
  assert.deepEqual(await say(page, 'can you book a table in london for two'), ["i'm on it", 'any preference on a type of cuisine']);
  assert.deepEqual(await say(page, 'i love british food'), ['which price range are looking for']);
  const found = await say(page, 'in a cheap price range please');
  assert.equal(found[0], 'ok let me look into some options for you');
  assert.equal(found[1], 'api_call british london two cheap');
  // The KB results arrive as a table: a row per restaurant, the dataset's attribute columns.
  const expected = store.query({ cuisine: 'british', location: 'london', number: 'two', price: 'cheap' }).sort((a, b) => b.rating - a.rating);
  assert.ok(expected.length > 0);
  const table = page.locator('[data-testid=kb-table]').last();
  assert.deepEqual(await table.locator('th').allTextContents(), ['restaurant', 'phone', 'cuisine', 'address', 'location', 'number', 'price', 'rating']);
  assert.deepEqual(await table.locator('tbody tr td:first-child').allTextContents(), expected.map((r) => r.name));
  const best = expected[0]?.name as string;
  assert.equal(found[2], `what do you think of this option: ${best}`);
  // The explanation panel shows the rule that fired and the dialog state.
  assert.match((await page.locator('[data-testid=rule]').textContent()) ?? '', /silence after api-call → propose/);
  assert.match((await page.locator('[data-testid=state]').textContent()) ?? '', /cuisine=british/);
  assert.deepEqual(await say(page, "let's do it"), ['great let me do the reservation']);
  assert.deepEqual(await say(page, 'may i have the phone number of the restaurant'), [`here it is ${best}_phone`]);
  assert.deepEqual(await say(page, 'can you provide the address'), [`here it is ${best}_address`]);
  assert.deepEqual(await say(page, 'thanks'), ['is there anything i can help you with']);
  assert.match((await page.locator('[data-testid=state]').textContent()) ?? '', new RegExp(`booked${best}`));
  // Clicking an earlier bot turn shows its own explanation.
  await page.locator('[data-testid=api-call]').first().click();
  assert.match((await page.locator('[data-testid=rule]').textContent()) ?? '', /→ api-call/);
  // Emoji and punctuation are read past (not refused), and the conversation goes on.
  assert.deepEqual(await say(page, 'No thanks!! 🙂;'), ["you're welcome"]);
  assert.equal(store.all().length, 1200);
  assert.deepEqual((page as Page & { errors: string[] }).errors, []);
  await page.close();
});

test('the attention view renders a heat map per hop over the memories', { skip, timeout: 60_000 }, async () => {
  const page = await open(attnServer);
  await say(page, 'hi');
  await say(page, 'where should it be');
  const heat = page.locator('[data-testid=attention]');
  await heat.waitFor();
  assert.deepEqual(await heat.locator('thead th').allTextContents(), ['hop 1', 'memory']);
  const mems = await heat.locator('td.mem').allTextContents();
  assert.deepEqual(mems, ['user: hi', 'bot: hello what can i help you with today']);
  const w = await heat.locator('td.w').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-weight'))));
  assert.equal(w.length, 2);
  assert.ok(Math.abs((w[0] as number) + (w[1] as number) - 1) <= 1e-4, 'weights (to 4 decimals) sum to 1');
  const colours = await heat.locator('td.w').evaluateAll((tds) => tds.map((td) => (globalThis as unknown as Dom).getComputedStyle(td).backgroundColor));
  assert.ok(colours.every((c) => /^rgba\(211, 47, 47, /.test(c)), colours.join(' '));
  assert.equal(await page.locator('[data-testid=ranking] li').count(), 4);
  assert.deepEqual((page as Page & { errors: string[] }).errors, []);
  await page.close();
});

test('a trained HCN books a table end to end through the web UI: template, entities and action mask shown', { skip, timeout: 60_000 }, async () => {
  assert.equal(hcnDev, 1, 'the tiny HCN solves its generated dev dialogs');
  const page = await open(hcnServer);
  assert.match((await page.locator('[data-testid=status]').textContent()) ?? '', /model hcn/);
  assert.deepEqual(await say(page, 'good morning'), ['hello what can i help you with today']);
  // The template panel: the chosen template, the action mask over every template (some masked: no KB result yet).
  assert.match((await page.locator('[data-testid=template-name]').textContent()) ?? '', /hello what can i help you with today/);
  const masked = await page.locator('[data-testid=mask] li[data-mask="0"]').count();
  assert.ok(masked > 0, 'templates with unfillable placeholders are masked');
  assert.match((await page.locator('[data-testid=mask-count]').textContent()) ?? '', /^\d+ of \d+ templates available$/);
  assert.deepEqual(await say(page, 'can you make a restaurant reservation in rome for four with italian cuisine'), ["i'm on it", 'which price range are looking for']);
  assert.match((await page.locator('[data-testid=entities]').textContent()) ?? '', /cuisineitalian.*locationrome.*numberfour/);
  const found = await say(page, 'i am looking for a expensive restaurant');
  assert.deepEqual(found.slice(0, 2), ['ok let me look into some options for you', 'api_call italian rome four expensive']);
  const expected = store.query({ cuisine: 'italian', location: 'rome', number: 'four', price: 'expensive' }).sort((a, b) => b.rating - a.rating);
  assert.ok(expected.length >= 2);
  const table = page.locator('[data-testid=kb-table]').last();
  assert.deepEqual(await table.locator('tbody tr td:first-child').allTextContents(), expected.map((r) => r.name));
  // Options by rating: the best first, the next one after a rejection.
  assert.equal(found[2], `what do you think of this option: ${expected[0]?.name}`);
  assert.match((await page.locator('[data-testid=template-name]').textContent()) ?? '', /what do you think of this option: <name>/);
  assert.match((await page.locator('[data-testid=alternatives]').textContent()) ?? '', /option: <name>/);
  const second = expected[1]?.name as string;
  assert.deepEqual(await say(page, 'no this does not work for me'), ['sure let me find an other option for you', `what do you think of this option: ${second}`]);
  assert.deepEqual(await say(page, "let's do it"), ['great let me do the reservation']);
  assert.deepEqual(await say(page, 'may i have the phone number of the restaurant'), [`here it is ${second}_phone`]);
  assert.deepEqual(await say(page, 'can you provide the address'), [`here it is ${second}_address`]);
  assert.deepEqual(await say(page, 'thanks'), ['is there anything i can help you with']);
  assert.deepEqual(await say(page, 'no thanks'), ["you're welcome"]);
  // An earlier turn keeps its own explanation: the api_call's template.
  await page.locator('[data-testid=api-call]').first().click();
  assert.match((await page.locator('[data-testid=template-name]').textContent()) ?? '', /api_call <cuisine> <location> <number> <price>/);
  assert.deepEqual((page as Page & { errors: string[] }).errors, []);
  await page.close();
});
