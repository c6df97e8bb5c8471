/**
 * The web UI in a real browser: playwright-core drives Debian's chromium (/usr/bin/chromium; `.ci/run`
 * installs it with apt when missing), one browser for every test of this file. Books a table end to
 * end through the page with the rules bot and with a trained HCN (trained here in seconds on
 * generated task-5 dialogs) on a SQLite KB, and checks the KB table, the explanation panels (rule
 * and state; template, entities and action mask) and the attention heat map render. Then the
 * points of issue 19: sending disabled with a typing indicator while a reply is pending (a message
 * typed meanwhile neither lost nor sent twice, the reply delayed by a route interception); refused
 * messages marked "not sent" and restorable; the layout at 360, 390 and 1280 px (geometry
 * asserted, screenshots written to $DIALOGYM_ARTIFACTS/browser or the temp folder's
 * dialogym-browser-screenshots); a compact KB table once per api_call; explanations by keyboard;
 * the empty-state hint from `GET /api/kb`; transcript export as JSON and text.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, noChromium } from './browser.js';
import { babiDir, skipUnless, skipUnlessSqlite } from './shared-data.js';
import { trainTinyHcn } from './tiny-hcn.js';
import { readBabiKb } from '../src/formats/babi.js';
import type { Turn } from '../src/core/dialog.js';
import { importKbFile, SqliteKbStore } from '../src/testbeds/restaurant/kb-sqlite.js';
import { createRulesBot } from '../src/testbeds/restaurant/rules/rules.js';
import type { Ranker } from '../src/rankers/ranker.js';
import { chatModelOf } from '../src/testbeds/restaurant/chat/chat-model.js';
import type { AttentionSource } from '../src/testbeds/restaurant/chat/explanation.js';
import type { ChatServer } from '../src/serve/server.js';
import { restaurantServer } from './chat-server.js';
import { checkSchema } from '../src/formats/schema.js';
import type { Responder } from '../src/rankers/ranker.js';

/** The bits of the DOM the page functions use (this package compiles without DOM types). */
interface Box {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly width: number;
  readonly height: number;
}
interface DomElement {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  querySelectorAll(selector: string): Iterable<DomElement>;
}
interface Dom {
  document: {
    querySelectorAll(selector: string): Iterable<DomElement> & { length: number };
    querySelector(selector: string): DomElement | null;
    readonly documentElement: DomElement;
    readonly body: DomElement;
    readonly activeElement: DomElement | null;
    createRange(): { selectNodeContents(n: unknown): void; getClientRects(): { length: number } };
  };
  getComputedStyle(e: unknown): { backgroundColor: string; whiteSpace: string; wordBreak: string; overflowWrap: string };
  readonly innerWidth: number;
  readonly innerHeight: number;
}

const skip = skipUnless(babiDir) || noChromium || skipUnlessSqlite();

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-browser-'));
let store: SqliteKbStore;
let rulesServer: ChatServer;
let attnServer: ChatServer;
let hcnServer: ChatServer;
let scriptServer: ChatServer;
/** Rules bot server's longest message (a longer one is cut to it; the page's box takes no more). */
const MAX_TEXT = 100;
const SHOTS = process.env.DIALOGYM_ARTIFACTS ? join(process.env.DIALOGYM_ARTIFACTS, 'browser') : join(tmpdir(), 'dialogym-browser-screenshots');
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

/**
 * A scripted bot for the KB-table checks: `find <cuisine> <city> <n> <price>` → that api_call, then
 * `here are the options`; anything else → `ok`.
 */
function scriptedBot(): Responder {
  return {
    name: 'scripted',
    respond(history) {
      const last = [...history].reverse().find((t) => t.speaker === 'user');
      const text = last?.text ?? '';
      if (text.startsWith('find ')) return history.at(-1)?.speaker === 'user' ? `api_call ${text.slice(5)}` : 'here are the options';
      return text === '<SILENCE>' ? 'here are the options' : 'ok';
    },
  };
}

before(async () => {
  if (skip) return;
  const kbFile = join(tmp, 'kb.sqlite');
  importKbFile(join(babiDir, 'dialog-babi-kb-all.txt'), kbFile);
  store = SqliteKbStore.open(kbFile);
  const kb = { store, dialect: store.dialect };
  rulesServer = restaurantServer(chatModelOf(createRulesBot()), kb, { maxTextLength: MAX_TEXT });
  scriptServer = restaurantServer(chatModelOf(scriptedBot()), kb);
  const candidates = ['hello what can i help you with today', "i'm on it", 'any preference on a type of cuisine', 'where should it be'];
  attnServer = restaurantServer(chatModelOf(overlapRanker(), { candidates }), kb);
  const hcn = trainTinyHcn(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts);
  hcnDev = hcn.dev;
  hcnServer = restaurantServer(chatModelOf(hcn.model), kb);
  context = await launchChromium(tmp);
});

after(async () => {
  if (skip) return;
  await context?.close();
  await rulesServer?.close();
  await attnServer?.close();
  await hcnServer?.close();
  await scriptServer?.close();
  store?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const bases = new Map<ChatServer, string>();
async function baseOf(server: ChatServer): Promise<string> {
  if (!bases.has(server)) bases.set(server, await server.listen(0, '127.0.0.1'));
  return bases.get(server) as string;
}

type TestPage = Page & { errors: string[]; sessionId: () => string };

async function open(server: ChatServer, viewport = { width: 1280, height: 800 }): Promise<TestPage> {
  const base = await baseOf(server);
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  let session = '';
  page.on('response', async (r) => {
    if (r.request().method() === 'POST' && r.url().endsWith('/api/sessions') && r.status() === 201) session = ((await r.json()) as { id: string }).id;
  });
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // Dependency-free page: nothing is fetched from anywhere but the server (no CDN, no web font).
  page.on('request', (r) => {
    if (!r.url().startsWith(base + '/') && !/^(blob|data):/.test(r.url())) errors.push(`external request: ${r.url()}`);
  });
  const p = page as TestPage;
  p.errors = errors;
  p.sessionId = () => session;
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid=status][data-ready=true]');
  return p;
}

/** Types a message, waits for the bot's answer; returns the new bot/api_call bubbles' texts. */
async function say(page: Page, text: string): Promise<string[]> {
  const before = await page.locator('[data-testid=bot], [data-testid=api-call], [data-testid=notice], [data-state=failed]').count();
  await page.fill('[data-testid=input]', text);
  await page.press('[data-testid=input]', 'Enter');
  await page.waitForFunction((n) => (globalThis as unknown as Dom).document.querySelectorAll('[data-testid=bot], [data-testid=api-call], [data-testid=notice], [data-state=failed]').length > n, before);
  await page.waitForSelector('[data-testid=send]:not([disabled])');
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
  // The KB results arrive as a table: a row per restaurant, best rated first; the columns the call
  // fixed (cuisine, location, number, price) are left out, the others keep the dataset's names.
  const expected = store.query({ cuisine: 'british', location: 'london', number: 'two', price: 'cheap' }).sort((a, b) => b.rating - a.rating);
  assert.ok(expected.length > 0);
  const table = page.locator('[data-testid=kb-table]').last();
  assert.deepEqual(await table.locator('thead th').allTextContents(), ['restaurant', 'rating', 'phone', 'address']);
  assert.deepEqual(await table.locator('tbody th').allTextContents(), expected.map((r) => r.name));
  assert.deepEqual(await table.locator('tbody tr td:nth-child(2)').allTextContents(), expected.map((r) => String(r.rating)));
  assert.deepEqual(await table.locator('tbody tr td:nth-child(3)').allTextContents(), expected.map((r) => r.phone));
  assert.equal(await page.locator('[data-testid=kb] figcaption').last().textContent(), `${expected.length} restaurants for british london two cheap`);
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
  assert.deepEqual(page.errors, []);
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
  assert.deepEqual(page.errors, []);
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
  assert.deepEqual(await table.locator('tbody th').allTextContents(), expected.map((r) => r.name));
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
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** Width and height of a PNG file (its IHDR chunk). */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  assert.equal(b.subarray(1, 4).toString('latin1'), 'PNG', `${file} is a PNG`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** The user bubbles' texts (without their failure notes). */
async function userTexts(page: Page): Promise<string[]> {
  return page.locator('[data-testid=user] .text').allTextContents();
}

test('while a reply is pending: Send disabled, typing indicator; a message typed meanwhile stays in the box, sent once', { skip, timeout: 60_000 }, async () => {
  const page = await open(rulesServer);
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/messages')) posts.push((r.postDataJSON() as { text: string }).text);
  });
  // Hold the first reply until released.
  let release = (): void => {};
  const held = new Promise<void>((res) => (release = res));
  let holding = true;
  await page.route('**/api/sessions/*/messages', async (route) => {
    if (holding) await held;
    await route.continue();
  });
  await page.fill('[data-testid=input]', 'hello');
  await page.press('[data-testid=input]', 'Enter');
  await page.press('[data-testid=input]', 'Enter'); // a second Enter on the cleared box sends nothing
  await page.locator('[data-testid=typing]').waitFor();
  assert.equal(await page.isDisabled('[data-testid=send]'), true, 'Send is disabled while the reply is pending');
  assert.equal(await page.getAttribute('#form', 'aria-busy'), 'true');
  assert.equal(await page.getAttribute('[data-testid=typing]', 'aria-label'), 'the bot is typing');
  // The person writes the next message meanwhile and presses Enter: it is neither sent nor cleared.
  assert.equal(await page.isEditable('[data-testid=input]'), true);
  await page.keyboard.type('can you book a table in paris');
  await page.keyboard.press('Enter');
  assert.equal(await page.isVisible('[data-testid=pending-note]'), true);
  assert.equal(await page.inputValue('[data-testid=input]'), 'can you book a table in paris');
  assert.deepEqual(await userTexts(page), ['hello']);
  assert.deepEqual(posts, ['hello']);
  holding = false;
  release();
  await page.locator('[data-testid=bot]').first().waitFor();
  await page.waitForSelector('[data-testid=send]:not([disabled])');
  assert.equal(await page.locator('[data-testid=typing]').count(), 0, 'the typing indicator is gone');
  assert.equal(await page.isVisible('[data-testid=pending-note]'), false);
  assert.equal(await page.getAttribute('#form', 'aria-busy'), 'false');
  assert.deepEqual(await page.locator('[data-testid=bot]').allTextContents(), ['hello what can i help you with today']);
  // The kept message is still in the box, focused: Enter sends it, once.
  assert.equal(await page.inputValue('[data-testid=input]'), 'can you book a table in paris');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid=bot]').nth(2).waitFor();
  assert.deepEqual(await page.locator('[data-testid=bot]').allTextContents(), ['hello what can i help you with today', "i'm on it", 'any preference on a type of cuisine']);
  assert.deepEqual(await userTexts(page), ['hello', 'can you book a table in paris']);
  assert.deepEqual(posts, ['hello', 'can you book a table in paris']);
  assert.deepEqual(await page.locator('[data-testid=user]').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-state'))), ['sent', 'sent']);
  // The server saw each message once.
  const t = (await (await fetch(`${await baseOf(rulesServer)}/api/sessions/${page.sessionId()}`)).json()) as { turns: { speaker: string; text: string }[] };
  assert.deepEqual(
    t.turns.filter((x) => x.speaker === 'user' && x.text !== '<SILENCE>').map((x) => x.text),
    ['hello', 'can you book a table in paris'],
  );
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an expired session: the message goes back to the box in a new session; a new conversation drops the old pending reply', { skip, timeout: 60_000 }, async () => {
  const page = await open(rulesServer);
  assert.deepEqual(await say(page, 'hello'), ['hello what can i help you with today']);
  const first = page.sessionId();
  // The server forgets the session (as after the idle expiry): the next message gets a 404.
  assert.equal((await fetch(`${await baseOf(rulesServer)}/api/sessions/${first}`, { method: 'DELETE' })).status, 204);
  await page.fill('[data-testid=input]', 'can you book a table in rome');
  await page.press('[data-testid=input]', 'Enter');
  await page.waitForFunction((id) => {
    const s = (globalThis as unknown as Dom).document.querySelector('[data-testid=status]');
    return s?.getAttribute('data-ready') === 'true' && !(s.textContent ?? '').includes(id);
  }, first.slice(0, 8));
  await page.locator('[data-testid=notice]').waitFor();
  assert.equal(await page.locator('[data-testid=notice]').textContent(), 'the session expired: a new one started, and your message is back in the box');
  assert.equal(await page.inputValue('[data-testid=input]'), 'can you book a table in rome');
  assert.notEqual(page.sessionId(), first);
  assert.deepEqual(await say(page, 'can you book a table in rome'), ["i'm on it", 'any preference on a type of cuisine']);
  // A reply still pending when a new conversation starts does not land in the new one.
  let release = (): void => {};
  const held = new Promise<void>((res) => (release = res));
  await page.route('**/api/sessions/*/messages', async (route) => {
    await held;
    await route.continue();
  }, { times: 1 });
  await page.fill('[data-testid=input]', 'with italian food');
  await page.press('[data-testid=input]', 'Enter');
  await page.locator('[data-testid=typing]').waitFor();
  const second = page.sessionId();
  await page.click('[data-testid=new-session]');
  await page.waitForFunction((id) => {
    const s = (globalThis as unknown as Dom).document.querySelector('[data-testid=status]');
    return s?.getAttribute('data-ready') === 'true' && !(s.textContent ?? '').includes(id);
  }, second.slice(0, 8));
  assert.equal(await page.isDisabled('[data-testid=send]'), false, 'the new conversation can send at once');
  assert.equal(await page.isVisible('[data-testid=empty-hint]'), true);
  // The old session was deleted by the new conversation: its held message ends in a 404, which the page ignores.
  await Promise.all([page.waitForResponse((r) => r.url().endsWith(`/api/sessions/${second}/messages`)), release()]);
  assert.deepEqual(await say(page, 'hi'), ['hello what can i help you with today']);
  assert.deepEqual(await userTexts(page), ['hi']);
  assert.equal(await page.locator('#log > li').count(), 2, 'nothing of the old conversation (no reply, no "not sent", no notice)');
  // 404s: the expired session's message, the new conversation's DELETE of it, the held message of the deleted one.
  assert.deepEqual(page.errors, Array(3).fill('Failed to load resource: the server responded with a status of 404 (Not Found)'));
  await page.close();
});

test('a refused message is marked "not sent" in the transcript and Restore puts it back in the box', { skip, timeout: 60_000 }, async () => {
  const page = await open(rulesServer);
  assert.deepEqual(await say(page, 'hello'), ['hello what can i help you with today']);
  // The box takes at most the server's limit (longer text would be cut by the server, not refused).
  assert.equal(await page.getAttribute('[data-testid=input]', 'maxlength'), String(MAX_TEXT));
  // A real 400 of the server: nothing left once emoji and punctuation are dropped.
  const refused = '🙂 ?! 🙂';
  assert.deepEqual(await say(page, refused), []);
  const failed = page.locator('[data-testid=user][data-state=failed]');
  assert.equal(await failed.count(), 1);
  assert.equal(await failed.locator('.text').textContent(), refused);
  assert.equal(await failed.locator('[data-testid=failure]').textContent(), 'not sent: text is empty once emoji and punctuation are dropped');
  assert.equal(await page.inputValue('[data-testid=input]'), '', 'the box was cleared on sending');
  // Restore by keyboard: the text goes back to the box, the marked turn leaves the transcript.
  await failed.locator('[data-testid=restore]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('[data-testid=input]'), refused);
  assert.equal(await failed.count(), 0);
  assert.equal(await page.evaluate(() => (globalThis as unknown as Dom).document.activeElement?.getAttribute('data-testid')), 'input');
  // A server error (503) and a network failure are marked the same way.
  await page.route('**/api/sessions/*/messages', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'the server is busy' }) }), { times: 1 });
  await page.fill('[data-testid=input]', 'can you book a table in rome');
  await page.press('[data-testid=input]', 'Enter');
  await failed.waitFor();
  assert.equal(await failed.locator('[data-testid=failure]').textContent(), 'not sent: the server is busy');
  await page.route('**/api/sessions/*/messages', (route) => route.abort('failed'), { times: 1 });
  await page.fill('[data-testid=input]', 'with italian food');
  await page.press('[data-testid=input]', 'Enter');
  await page.locator('[data-testid=user][data-state=failed]').nth(1).waitFor();
  assert.deepEqual(await failed.locator('[data-testid=failure]').allTextContents(), ['not sent: the server is busy', 'not sent: network error: the server did not answer']);
  // Restoring the first while something is typed keeps both texts.
  await page.fill('[data-testid=input]', 'for four');
  await failed.first().locator('[data-testid=restore]').click();
  assert.equal(await page.inputValue('[data-testid=input]'), 'can you book a table in rome for four');
  await page.press('[data-testid=input]', 'Enter');
  await page.waitForSelector('[data-testid=send]:not([disabled])');
  assert.deepEqual(await userTexts(page), ['hello', 'with italian food', 'can you book a table in rome for four']);
  assert.deepEqual(await page.locator('[data-testid=user]').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-state'))), ['sent', 'failed', 'sent']);
  assert.equal(await page.locator('[data-testid=bot]').last().textContent(), 'any preference on a type of cuisine');
  // The server took only what was sent.
  const t = (await (await fetch(`${await baseOf(rulesServer)}/api/sessions/${page.sessionId()}`)).json()) as { turns: { speaker: string; text: string }[] };
  assert.deepEqual(
    t.turns.filter((x) => x.speaker === 'user' && x.text !== '<SILENCE>').map((x) => x.text),
    ['hello', 'can you book a table in rome for four'],
  );
  assert.deepEqual(page.errors, ['Failed to load resource: the server responded with a status of 400 (Bad Request)', 'Failed to load resource: the server responded with a status of 503 (Service Unavailable)', 'Failed to load resource: net::ERR_FAILED']);
  await page.close();
});

test('the empty state names the KB’s cities and cuisines (GET /api/kb) and offers an example that finds a restaurant', { skip, timeout: 60_000 }, async () => {
  const base = await baseOf(rulesServer);
  const res = await fetch(`${base}/api/kb`);
  assert.equal(res.status, 200);
  const hint = (await res.json()) as { restaurants: number; cities: string[]; cuisines: string[]; prices: string[]; partySizes: string[]; example: string };
  assert.equal(checkSchema('serve-kb-hint', hint), undefined);
  const all = store.all();
  assert.equal(hint.restaurants, all.length);
  assert.deepEqual(hint.cities, [...new Set(all.map((r) => r.location))].sort());
  assert.deepEqual(hint.cuisines, [...new Set(all.map((r) => r.cuisine))].sort());
  assert.deepEqual(hint.prices, ['cheap', 'moderate', 'expensive']);
  assert.deepEqual(hint.partySizes, ['two', 'four', 'six', 'eight']);
  const page = await open(rulesServer);
  const empty = page.locator('[data-testid=empty-hint]');
  await page.locator('[data-testid=example]').waitFor();
  const text = (await empty.textContent()) ?? '';
  for (const w of [...hint.cities, ...hint.cuisines, ...hint.prices]) assert.ok(text.includes(w), `the hint names ${w}: ${text}`);
  assert.match(text, /This KB has 1200 restaurants in bangkok, beijing, .* and tokyo\./);
  assert.equal(await page.locator('[data-testid=example]').textContent(), hint.example);
  // The example (by keyboard) goes to the box; sent, it finds the KB's first restaurant's kind.
  await page.focus('[data-testid=example]');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('[data-testid=input]'), hint.example);
  const r0 = all[0] as (typeof all)[number];
  const replies = await say(page, hint.example);
  assert.equal(replies.find((x) => x.startsWith('api_call')), `api_call ${r0.cuisine} ${r0.location} ${r0.number} ${r0.price}`);
  assert.ok((await page.locator('[data-testid=kb-table] tbody tr').count()) >= 1);
  assert.equal(await empty.isVisible(), false, 'the hint leaves once the conversation starts');
  await page.click('[data-testid=new-session]');
  await page.waitForSelector('[data-testid=status][data-ready=true]');
  assert.equal(await empty.isVisible(), true, 'a new conversation shows it again');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('KB results: one compact table per api_call; the same call again points back to it', { skip, timeout: 60_000 }, async () => {
  const page = await open(scriptServer);
  const rome = store.query({ cuisine: 'italian', location: 'rome', number: 'four', price: 'expensive' }).sort((a, b) => b.rating - a.rating);
  assert.deepEqual(await say(page, 'find italian rome four expensive'), ['api_call italian rome four expensive', 'here are the options']);
  assert.deepEqual(await say(page, 'thanks'), ['ok']);
  assert.deepEqual(await say(page, 'find italian rome four expensive'), ['api_call italian rome four expensive', 'here are the options']);
  assert.equal(await page.locator('[data-testid=kb-table]').count(), 1, 'the same results are not repeated');
  const same = page.locator('[data-testid=kb-same]');
  assert.equal(await same.textContent(), `same results as above: ${rome.length} restaurants`);
  const target = (await same.locator('a').getAttribute('href')) ?? '';
  assert.equal(await page.locator(`${target} [data-testid=kb-table] tbody th`).count(), rome.length);
  // Another call: its own table; a call without match: one line.
  assert.deepEqual(await say(page, 'find british london two cheap'), ['api_call british london two cheap', 'here are the options']);
  assert.equal(await page.locator('[data-testid=kb-table]').count(), 2);
  // The bot keeps the floor after a search without match, as after one with results (the fixture's bot says its line).
  assert.deepEqual(await say(page, 'find klingon mars two cheap'), ['api_call klingon mars two cheap', 'here are the options']);
  assert.equal(await page.locator('[data-testid=kb-empty]').textContent(), 'no restaurant matches');
  assert.deepEqual(await page.locator('[data-testid=kb] figcaption').allTextContents(), [`${rome.length} restaurants for italian rome four expensive`, `${store.query({ cuisine: 'british', location: 'london', number: 'two', price: 'cheap' }).length} restaurants for british london two cheap`]);
  // Compact: a row per restaurant, only the columns the call did not fix, each row a single line.
  const first = page.locator('[data-testid=kb-table]').first();
  assert.deepEqual(await first.locator('thead th').allTextContents(), ['restaurant', 'rating', 'phone', 'address']);
  assert.deepEqual(await first.locator('tbody th').allTextContents(), rome.map((r) => r.name));
  assert.deepEqual(await first.locator('tbody td:nth-child(4)').allTextContents(), rome.map((r) => r.address));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('explanations by keyboard: bot turns are buttons (aria-expanded); Enter and Space show their explanation', { skip, timeout: 60_000 }, async () => {
  const page = await open(rulesServer);
  await say(page, 'hello');
  await say(page, 'can you book a table in london for two people with british food in a cheap price range');
  const focused = (): Promise<string> => page.evaluate(() => {
    const a = (globalThis as unknown as Dom).document.activeElement;
    return a ? `${a.getAttribute('class') ?? ''}|${a.textContent ?? ''}` : '';
  });
  // From the message box, Shift+Tab walks back through the conversation's turns.
  await page.focus('[data-testid=input]');
  const seen: string[] = [];
  for (let i = 0; i < 12 && !(seen.at(-1) ?? '').startsWith('turn|api_call'); i++) {
    await page.keyboard.press('Shift+Tab');
    seen.push(await focused());
  }
  assert.match(seen[0] as string, /^turn\|what do you think of this option: resto_london_cheap_british_\dstars$/, 'the last bot turn comes first');
  assert.equal(seen.at(-1), 'turn|api_call british london two cheap', seen.join(' / '));
  assert.ok(seen.some((s) => s.startsWith('table-wrap|')), 'the KB table frame is focusable (it scrolls by keyboard)');
  await page.keyboard.press('Enter');
  assert.match((await page.locator('[data-testid=rule]').textContent()) ?? '', /→ api-call/);
  // Accessible names: every control and region is found by its role and name.
  assert.equal(await page.getByRole('button', { name: 'api_call british london two cheap', expanded: true }).count(), 1);
  assert.equal(await page.getByRole('textbox', { name: 'your message' }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'Send' }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'New conversation' }).count(), 1);
  assert.equal(await page.getByRole('link', { name: 'Export JSON' }).count(), 1);
  assert.equal(await page.getByRole('link', { name: 'Export text' }).count(), 1);
  assert.equal(await page.getByRole('region', { name: 'results of api_call british london two cheap' }).count(), 1);
  assert.equal(await page.getByRole('complementary', { name: 'explanation' }).count(), 1);
  const expanded = (): Promise<(string | null)[]> => page.locator('button.turn').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-expanded')));
  const turns = await page.locator('button.turn').allTextContents();
  const call = turns.indexOf('api_call british london two cheap');
  assert.deepEqual(await expanded(), turns.map((_, i) => String(i === call)));
  assert.equal(await page.getAttribute('button.turn >> nth=0', 'aria-controls'), 'explanation');
  // Shift+Tab to the turn before (ok let me look…), Space opens it.
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(), 'turn|ok let me look into some options for you');
  await page.keyboard.press('Space');
  assert.match((await page.locator('[data-testid=rule]').textContent()) ?? '', /announce the search/);
  assert.deepEqual(await expanded(), turns.map((_, i) => String(i === call - 1)));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('transcript export: the JSON and text downloads hold what the server took', { skip, timeout: 60_000 }, async () => {
  const page = await open(rulesServer);
  await say(page, 'hello');
  await say(page, 'can you book a table in london for two people with british food in a cheap price range');
  const server = (await (await fetch(`${await baseOf(rulesServer)}/api/sessions/${page.sessionId()}`)).json()) as { id: string; turns: { speaker: string; text: string }[] };
  const grab = async (testid: string): Promise<{ name: string; body: string }> => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
    const file = join(tmp, d.suggestedFilename());
    await d.saveAs(file);
    return { name: d.suggestedFilename(), body: readFileSync(file, 'utf8') };
  };
  const json = await grab('export-json');
  assert.equal(json.name, `dialogym-${server.id.slice(0, 8)}.json`);
  assert.deepEqual(JSON.parse(json.body), { model: 'rules', ...server });
  const text = await grab('export-text');
  assert.equal(text.name, `dialogym-${server.id.slice(0, 8)}.txt`);
  const lines = text.body.split('\n');
  assert.match(lines[0] as string, new RegExp(`^# dialogym transcript · model rules · session ${server.id} · \\d{4}-\\d\\d-\\d\\dT`));
  const spoken = server.turns.filter((t) => t.text !== '<SILENCE>');
  assert.deepEqual(lines.slice(1), [...spoken.map((t) => `${t.speaker}: ${t.text}`), '']);
  assert.equal(lines[1], 'user: hello');
  assert.equal(lines[4], 'bot: i\'m on it');
  assert.ok(lines.includes('bot: api_call british london two cheap'));
  assert.ok(lines.some((l) => /^kb: resto_london_cheap_british_\dstars R_phone resto_london_cheap_british_\dstars_phone$/.test(l)));
  assert.ok(server.turns.some((t) => t.text === '<SILENCE>'), 'the silences are in the JSON, not in the text');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('layout from 360 px to 1280 px: message box and Send inside the viewport, no horizontal scroll, KB cells on one line', { skip, timeout: 90_000 }, async () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const viewport of [
    { width: 360, height: 740 },
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    const page = await open(rulesServer, viewport);
    await say(page, 'hello');
    await say(page, 'can you book a table in london for two people with british food in a cheap price range');
    const g = await page.evaluate(() => {
      const w = globalThis as unknown as Dom;
      const d = w.document;
      const box = (sel: string): Box => (d.querySelector(sel) as DomElement).getBoundingClientRect();
      const cells = [...d.querySelectorAll('[data-testid=kb-table] th, [data-testid=kb-table] td')];
      const lines = cells.map((c) => {
        const r = d.createRange();
        r.selectNodeContents(c);
        return r.getClientRects().length;
      });
      const wrap = d.querySelector('.table-wrap') as DomElement;
      const style = w.getComputedStyle(cells[0]);
      return {
        vw: w.innerWidth,
        vh: w.innerHeight,
        docScroll: d.documentElement.scrollWidth,
        docClient: d.documentElement.clientWidth,
        bodyScroll: d.body.scrollWidth,
        input: box('[data-testid=input]'),
        send: box('[data-testid=send]'),
        newButton: box('[data-testid=new-session]'),
        exportText: box('[data-testid=export-text]'),
        chat: box('#chat'),
        why: box('#why'),
        cells: cells.length,
        multiLine: lines.filter((n) => n !== 1).length,
        wrapScroll: wrap.scrollWidth,
        wrapClient: wrap.clientWidth,
        wrapRight: wrap.getBoundingClientRect().right,
        whiteSpace: style.whiteSpace,
      };
    });
    const at = `at ${viewport.width} px`;
    assert.equal(g.vw, viewport.width);
    assert.ok(g.docScroll <= g.docClient, `${at}: no horizontal scroll (${g.docScroll} > ${g.docClient})`);
    assert.ok(g.bodyScroll <= g.docClient, `${at}: body ${g.bodyScroll} wider than ${g.docClient}`);
    for (const [name, b] of Object.entries({ input: g.input, send: g.send, 'new conversation': g.newButton, 'export text': g.exportText })) {
      assert.ok(b.left >= 0 && b.right <= g.vw && b.top >= 0 && b.bottom <= g.vh, `${at}: ${name} inside the viewport: ${JSON.stringify(b)}`);
      assert.ok(b.width > 0 && b.height > 0, `${at}: ${name} visible`);
    }
    assert.ok(g.input.width >= 150, `${at}: the message box keeps room to type (${g.input.width} px)`);
    assert.ok(g.send.left >= g.input.right, `${at}: Send beside the box`);
    assert.ok(g.cells > 4 * 3, `${at}: the KB table is there`);
    assert.equal(g.multiLine, 0, `${at}: ${g.multiLine} KB cells broken over lines`);
    assert.equal(g.whiteSpace, 'nowrap');
    assert.ok(g.wrapRight <= g.vw, `${at}: the table frame stays inside the viewport`);
    if (viewport.width < 600) {
      assert.ok(g.wrapScroll > g.wrapClient, `${at}: the wide table scrolls inside its frame`);
      assert.ok(g.why.top >= g.chat.bottom - 1, `${at}: the explanation goes under the conversation`);
    } else assert.ok(g.why.left >= g.chat.right - 1, `${at}: the explanation beside the conversation`);
    if (viewport.width !== 360) {
      const file = join(SHOTS, `chat-${viewport.width}.png`);
      await page.screenshot({ path: file });
      assert.deepEqual(pngSize(file), viewport);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});

test('rules bot after a search without match: it says so (never silent), and "something else" never proposes an empty name', { skip, timeout: 60_000 }, async () => {
  const page = await open(rulesServer);
  const sorry = 'sorry there is no restaurant matching your request, would you like to change something';
  await say(page, 'hello');
  const found = await say(page, 'may i have a table with korean cuisine in paris for six people in a cheap price range');
  assert.deepEqual(found, ["i'm on it", 'ok let me look into some options for you', 'api_call korean paris six cheap', sorry]);
  assert.equal(await page.locator('[data-testid=kb-empty]').textContent(), 'no restaurant matches');
  assert.deepEqual(await say(page, 'something else'), [sorry]);
  for (const t of await page.locator('[data-testid=bot]').allTextContents()) assert.doesNotMatch(t, /option: ?$/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
