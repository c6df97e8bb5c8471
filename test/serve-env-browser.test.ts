/**
 * The `serve --env` page in a real browser (playwright-core, Debian's chromium): a scripted person
 * reads the goal card and the hint off the page and types the user's side of restaurant-task5-v2
 * against the built-in rules agent until the end screen says success; HTML typed is shown as text;
 * another person plays the agent, reading the dialog and the KB tables off the page and filling the
 * api_call form. Screenshots at 390 and 1280 px go to $DIALOGYM_ARTIFACTS/browser or
 * /tmp/shots (the layout: nothing wider than the screen). A wordless turn at 360 px: against an
 * agent that waits (test/waiting-agent.ts), the page says the user has nothing new to say; "Say
 * nothing" by keyboard lets it pass, words typed go on to success.
 */
import { pageNewDialog, pageSettled } from './env-page.js';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import '../src/index.js';
import { launchChromium, noChromium, pageWithErrors } from './browser.js';
import { createRng } from '../src/core/rng.js';
import type { ToolSpec } from '../src/env/env.js';
import type { AgentTransport } from '../src/agents/agent.js';
import { openAgent } from '../src/evaluation/open.js';
import { bareServer, defaultWebDir, type ChatServer } from '../src/serve/server.js';
import { registerEnvRoutes } from '../src/serve/env-routes.js';
import type { SessionState, SessionTurn } from '../src/serve/env-session.js';
import { restaurantUserParticipant } from '../src/testbeds/restaurant/testing/person-user.js';
import { restaurantAgentPerson } from './serve-env-people.js';
import { WAIT, waitingAgent } from './waiting-agent.js';

const SHOTS = process.env.DIALOGYM_ARTIFACTS ? join(process.env.DIALOGYM_ARTIFACTS, 'browser') : '/tmp/shots';
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-serve-env-browser-'));
let context: BrowserContext;

before(async () => {
  if (noChromium) return;
  mkdirSync(SHOTS, { recursive: true });
  context = await launchChromium(tmp);
});
after(async () => {
  await context?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A listening server with the `--env` routes (restaurant-task5-v2; as the user, against the rules agent, or `agent` made of it). */
async function serve(role: 'user' | 'agent', o: { firstSeed?: number; agent?: (rules: AgentTransport) => AgentTransport } = {}): Promise<{ server: ChatServer; url: string }> {
  const server = bareServer({});
  const rules = role === 'user' ? await openAgent({ kind: 'builtin', name: 'rules' }) : undefined;
  registerEnvRoutes(server.app, { envId: 'restaurant-task5-v2', role, firstSeed: o.firstSeed ?? 5, webDir: defaultWebDir(), idleMs: 60_000, ...(rules ? { agent: o.agent ? o.agent(rules) : rules } : {}) });
  return { server, url: await server.listen(0, '127.0.0.1') };
}

/** Runs `body` on a new page (the page errors it saw collected in `errors`), then closes the page and `server`. */
async function onPage(server: ChatServer, body: (page: Page, errors: string[]) => Promise<void>): Promise<void> {
  const { page, errors } = await pageWithErrors(context);
  try {
    await body(page, errors);
  } finally {
    await page.close();
    await server.close();
  }
}

/** The page after a turn: the person's turn again (input enabled: the reply has come), or the end screen. */
const settled = pageSettled;

/** The dialog as the page shows it (each turn's words without the speaker label). */
function dialogOf(page: Page, role: 'user' | 'agent'): Promise<SessionTurn[]> {
  return page.evaluate((me) => {
    const d = (globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<{ className: string; childNodes: ArrayLike<{ textContent: string | null }> }> } }).document;
    return [...d.querySelectorAll('#log li')].flatMap((li) => {
      // A block of KB lines (one search's results) is a line each.
      if (li.className.includes('kb')) return (li.childNodes[0]?.textContent ?? '').split('\n').map((text) => ({ speaker: 'kb', text }) as SessionTurn);
      const speaker = li.className.includes('me') ? me : me === 'user' ? 'agent' : 'user';
      return [{ speaker, text: li.childNodes[1]?.textContent ?? '' } as SessionTurn];
    });
  }, role);
}

async function shoot(page: Page, name: string, widths: readonly number[] = [390, 1280]): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : width === 360 ? 740 : 800 });
    const wide = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document;
      return d.documentElement.scrollWidth - d.documentElement.clientWidth;
    });
    assert.ok(wide <= 0, `${name} at ${width} px: nothing wider than the screen (${wide} px more)`);
    await page.screenshot({ path: join(SHOTS, `env-${name}-${width}.png`), fullPage: true });
  }
}

test('as the user in the browser: the goal card and hint read off the page, the outcome on the end screen', { skip: noChromium }, async () => {
  const { server, url } = await serve('user');
  await onPage(server, async (page, errors) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${url}/env`);
    await settled(page);
    assert.equal(await page.textContent('#title'), 'restaurant-task5-v2 · you are the user');
    const say = restaurantUserParticipant(createRng(11));
    let turns = 0;
    while (await page.isHidden('#outcome')) {
      assert.ok(turns++ < 60, 'the dialog ends');
      const card = { title: (await page.textContent('#goal-title')) ?? '', lines: await page.$$eval('#goal-lines li', (ls) => ls.map((l) => l.textContent ?? '')) };
      assert.ok(card.lines.length > 0, 'a goal card');
      const hint = (await page.textContent('#hint')) ?? '';
      const agentSaid = (await dialogOf(page, 'user')).filter((t) => t.speaker === 'agent').at(-1)?.text ?? '';
      // A turn where the simulated user says nothing new: let it pass, as it does.
      if (await page.isVisible('#wordless')) await page.click('#pass');
      else {
        await page.fill('#text', say(card, hint, agentSaid));
        await page.click('#send');
      }
      await settled(page);
      if (turns === 3) await shoot(page, 'user-dialog');
    }
    const outcome = await page.$$eval('#outcome p', (ps) => ps.map((p) => p.textContent ?? ''));
    assert.match(outcome[0] ?? '', /^Success: /, outcome.join(' | '));
    assert.ok((await dialogOf(page, 'user')).some((t) => t.speaker === 'kb'), 'the KB lines of the search are shown');
    await shoot(page, 'user-end');
    // A new dialog; HTML typed is shown as the text it is.
    await pageNewDialog(page); // waits for the old end screen to go, then the new dialog's first turn
    assert.equal(await page.isHidden('#outcome'), true);
    await page.fill('#text', '<img src=x onerror="document.title=1"><b>hello</b>');
    await page.click('#send');
    await settled(page);
    assert.equal(await page.locator('#log li.me').first().evaluate((li) => li.childNodes[1]?.textContent), '<img src=x onerror="document.title=1"><b>hello</b>');
    assert.equal(await page.locator('#log img, #log b').count(), 0, 'no element made of the text');
    await page.click('#end');
    await page.waitForSelector('#outcome:not([hidden])');
    assert.equal(await page.textContent('#outcome p'), 'Abandoned: the dialog was ended before it was over.');
    assert.deepEqual(errors, []);
  });
});

test('as the agent in the browser: the KB results as tables, the api_call through its form', { skip: noChromium }, async () => {
  const { server, url } = await serve('agent');
  await onPage(server, async (page, errors) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${url}/env`);
    await settled(page);
    assert.equal(await page.isHidden('#goal'), true, 'the agent has no goal card');
    const person = restaurantAgentPerson();
    let turns = 0;
    let calls = 0;
    while (await page.isHidden('#outcome')) {
      assert.ok(turns++ < 60, 'the dialog ends');
      // The form's tool and its options, as the page offers them.
      const tools: ToolSpec[] = [
        {
          type: 'function',
          function: {
            name: (await page.inputValue('#tool')) || 'api_call',
            description: '',
            parameters: { properties: Object.fromEntries(await page.$$eval('#fields select', (ss) => ss.map((s) => [s.getAttribute('name') ?? '', { enum: [...s.querySelectorAll('option')].map((o) => o.getAttribute('value') ?? '') }]))) },
          },
        },
      ];
      const input = person({ env: 'restaurant-task5-v2', role: 'agent', turns: await dialogOf(page, 'agent'), waiting: 'person', tools } as SessionState);
      if (typeof input === 'string') {
        await page.fill('#text', input);
        await page.click('#send');
      } else {
        await page.selectOption('#tool', input.tool);
        for (const [k, v] of Object.entries(input.arguments)) await page.selectOption(`[data-testid="arg-${k}"]`, String(v));
        if (calls++ === 1) await shoot(page, 'agent-form');
        await page.click('#call');
      }
      await settled(page);
    }
    assert.ok(calls >= 1, 'the api_call form was used');
    assert.ok((await page.locator('#view table').count()) > 0, 'the search results as a table');
    const outcome = await page.$$eval('#outcome p', (ps) => ps.map((p) => p.textContent ?? ''));
    assert.match(outcome[0] ?? '', /^Success: /, outcome.join(' | '));
    await shoot(page, 'agent-end');
    assert.deepEqual(errors, []);
  });
});

test('as the agent of infobot-medium-v1 on a 360 px phone: the movie table (428 rows) scrolls in its own frame, its header kept; the dialog and the forms are a screen or two away, not 10,000 px', { skip: noChromium }, async () => {
  const server = bareServer({});
  registerEnvRoutes(server.app, { envId: 'infobot-medium-v1', role: 'agent', firstSeed: 1, webDir: defaultWebDir(), idleMs: 60_000 });
  const url = await server.listen(0, '127.0.0.1');
  await onPage(server, async (page, errors) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${url}/env`);
    await settled(page);
    const m = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { documentElement: { scrollHeight: number; scrollWidth: number; clientWidth: number }; querySelector(s: string): { scrollHeight: number; clientHeight: number; getBoundingClientRect(): { top: number } } | null } }).document;
      const wrap = d.querySelector('#view .table-wrap');
      return { page: d.documentElement.scrollHeight, wide: d.documentElement.scrollWidth - d.documentElement.clientWidth, rows: wrap?.scrollHeight ?? 0, frame: wrap?.clientHeight ?? 0 };
    });
    assert.ok(m.rows > 5000, `the whole table is there (${m.rows} px of rows)`);
    assert.ok(m.frame <= 740 * 0.5, `its frame at most half the screen (${m.frame} px)`);
    assert.ok(m.page < 3 * 740, `the page is under three screens (${m.page} px)`);
    assert.ok(m.wide <= 0, 'nothing wider than the screen');
    // Scrolled to its last rows, the header row is still in view at the frame's top.
    const header = await page.locator('#view .table-wrap').evaluate((w) => {
      const el = w as unknown as { scrollTop: number; scrollHeight: number; getBoundingClientRect(): { top: number }; querySelector(s: string): { getBoundingClientRect(): { top: number } } | null };
      el.scrollTop = el.scrollHeight;
      return Math.abs((el.querySelector('thead th')?.getBoundingClientRect().top ?? -999) - el.getBoundingClientRect().top);
    });
    assert.ok(header < 4, `the header row stays at the top of the frame (${header} px off)`);
    await page.screenshot({ path: join(SHOTS, 'env-infobot-agent-360.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });
});

test('a reload resumes the tab\'s dialog (its turns, the person\'s turn); "New dialog" starts another; a dialog the server no longer has starts afresh', { skip: noChromium }, async () => {
  const { server, url } = await serve('user');
  await onPage(server, async (page, errors) => {
    await page.goto(`${url}/env`);
    await settled(page);
    await page.fill('#text', 'hello there');
    await page.click('#send');
    await settled(page);
    const before = await dialogOf(page, 'user');
    assert.ok(before.length >= 2, 'the greeting and the answer');
    await page.reload();
    await settled(page);
    assert.deepEqual(await dialogOf(page, 'user'), before, 'the same dialog after the reload');
    assert.equal(await page.isDisabled('#text'), false, "the person's turn");
    await pageNewDialog(page);
    assert.deepEqual(await dialogOf(page, 'user'), [], 'a new dialog');
    // The server forgets the dialog (a restart, an expiry): the reload starts a new one.
    await page.fill('#text', 'hello again');
    await page.click('#send');
    await settled(page);
    await page.evaluate(() => (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem('dialogym-env-session', 'gone-0000'));
    await page.reload();
    await settled(page);
    assert.deepEqual(await dialogOf(page, 'user'), [], 'unknown to the server: a new dialog');
    assert.deepEqual(errors.filter((e) => !/404/.test(e)), []);
  });
});

/** The agent's last words on the page. */
async function lastAgentSaid(page: Page): Promise<string> {
  return page.$$eval('#log li:not(.me):not(.kb):not(.notice)', (ls) => ls.at(-1)?.childNodes[1]?.textContent ?? '');
}

/** The goal card on the page. */
async function pageCard(page: Page): Promise<{ title: string; lines: string[] }> {
  return { title: (await page.textContent('#goal-title')) ?? '', lines: await page.$$eval('#goal-lines li', (ls) => ls.map((l) => l.textContent ?? '')) };
}

/** Types `text` and presses Enter; then waits for the page to settle. */
async function typeEnter(page: Page, text: string): Promise<void> {
  await page.fill('#text', text);
  await page.press('#text', 'Enter');
  await pageSettled(page);
}

test('a wordless turn at 360 px: the page says the user has nothing new to say; "Say nothing" by keyboard passes it, words typed go on to success', { skip: noChromium }, async () => {
  const { server, url } = await serve('user', { firstSeed: 1, agent: waitingAgent });
  await onPage(server, async (page, errors) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${url}/env`);
    await pageSettled(page);
    assert.equal(await page.isHidden('#wordless'), true, 'a normal turn');
    const say = restaurantUserParticipant(createRng(7));
    await typeEnter(page, say(await pageCard(page), (await page.textContent('#hint')) ?? '', await lastAgentSaid(page)));
    const question = await lastAgentSaid(page);
    const hint = (await page.textContent('#hint')) ?? '';
    await typeEnter(page, 'hmm');
    assert.equal(await lastAgentSaid(page), WAIT);
    assert.equal(await page.isVisible('#wordless'), true, 'the silent turn is shown');
    assert.equal(await page.textContent('#wordless p'), 'The user has nothing new to say this turn. Say something anyway, or let the turn pass.');
    await shoot(page, 'wordless', [360]);
    // The keyboard: from the input, Shift+Tab reaches "Say nothing"; Enter passes the turn.
    await page.focus('#text');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id), 'pass');
    const waits = (await page.$$eval('#log li', (ls) => ls.map((l) => l.childNodes[1]?.textContent))).filter((t) => t === WAIT).length;
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => [...(globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<{ childNodes: ArrayLike<{ textContent: string | null }> }> } }).document.querySelectorAll('#log li')].filter((l) => l.childNodes[1]?.textContent === "whenever you're ready").length > n, waits);
    await pageSettled(page);
    assert.equal(await page.isVisible('#wordless'), true, 'the agent waits again: still silent');
    // Now the person speaks anyway: the agent reads it, the dialog goes on.
    await typeEnter(page, say(await pageCard(page), hint, question));
    assert.notEqual(await lastAgentSaid(page), WAIT);
    let turns = 0;
    while (await page.isHidden('#outcome')) {
      assert.ok(turns++ < 60, 'the dialog ends');
      if (await page.isVisible('#wordless')) {
        await page.click('#pass');
        await pageSettled(page);
      } else await typeEnter(page, say(await pageCard(page), (await page.textContent('#hint')) ?? '', await lastAgentSaid(page)));
    }
    const outcome = await page.$$eval('#outcome p', (ps) => ps.map((p) => p.textContent ?? ''));
    assert.match(outcome[0] ?? '', /^Success: /, outcome.join(' | '));
    assert.deepEqual(errors, []);
  });
});
