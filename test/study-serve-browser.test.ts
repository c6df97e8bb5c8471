/**
 * The study's pages in a real browser (Debian's chromium through playwright-core, test/browser.ts):
 * a scripted participant opens their link, reads the goal card, the suggestion and the agent's
 * words off the page and types its own sentences, to the end of two conversations of
 * infobot-medium-v1, answering the rating after each; HTML typed as a message shows as text; the
 * admin page opens with the token and counts the sessions; no horizontal scrolling at 390 px. On
 * restaurant-task5-v2 the turns where the simulated user says nothing reach the participant (a
 * note, "Say nothing"; Enter on the empty line passes them), at 360 px.
 * Screenshots (participant at 390 and 1280 px, the end of a conversation, admin at 1280 and 390 px) go to $DIALOGYM_ARTIFACTS/study or
 * the temp folder's dialogym-study-screenshots.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import '../src/index.js';
import { studyConfig } from '../src/study/config.js';
import { createStudy, StudyStore } from '../src/study/store.js';
import { createStudyServer } from '../src/serve/study-server.js';
import { infoBotPerson } from './study-serve-client.js';
import { launchChromium, noChromium, pageWithErrors } from './browser.js';
import { createRng } from '../src/core/rng.js';
import { restaurantUserParticipant } from '../src/testbeds/restaurant/testing/person-user.js';
import { skipUnlessSqlite } from './shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-study-browser-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const shots = process.env['DIALOGYM_ARTIFACTS'] ? join(process.env['DIALOGYM_ARTIFACTS'], 'study') : join(tmpdir(), 'dialogym-study-screenshots');
const skip = noChromium || skipUnlessSqlite();

/** The page's text of a selector (every match, in order). */
const texts = (page: Page, selector: string): Promise<string[]> => page.$$eval(selector, (els) => els.map((e) => e.textContent ?? ''));

/** The bits of the DOM used here (this package compiles without DOM types). */
interface Dom {
  document: { getElementById(id: string): { hidden: boolean; disabled: boolean; textContent: string | null }; documentElement: { scrollWidth: number; clientWidth: number } };
}

/** Whether the page scrolls sideways. */
const overflows = (page: Page): Promise<boolean> => page.evaluate(() => (globalThis as unknown as Dom).document.documentElement.scrollWidth > (globalThis as unknown as Dom).document.documentElement.clientWidth);

/** Waits until the person may write (or the conversation ended). */
const yourTurn = (page: Page): Promise<unknown> => page.waitForFunction(() => !(globalThis as unknown as Dom).document.getElementById('end').hidden || !(globalThis as unknown as Dom).document.getElementById('send').disabled);

/**
 * Plays the conversation on the page to its end, as a person reading the card, the suggestion and
 * the agent's words (KB-InfoBot's person unless `person`); a turn where the simulated user says
 * nothing new (the page's note) is let pass with Enter on the empty line, after `onWordless`.
 */
async function playOnPage(page: Page, code: string, number: number, shot?: (page: Page) => Promise<void>, o: { person?: (card: { title: string; lines: string[] }, hint: string | undefined, agentSaid: string) => string; onWordless?: (page: Page) => Promise<void> } = {}): Promise<string> {
  const person = o.person ?? infoBotPerson(code, number);
  await page.getByTestId('start').click();
  for (let turn = 0; ; turn++) {
    await yourTurn(page);
    if (await page.getByTestId('end').isVisible()) break;
    if (await page.getByTestId('wordless').isVisible()) {
      await o.onWordless?.(page);
      await page.getByTestId('input').press('Enter');
      continue;
    }
    const card = { title: (await texts(page, '#goal-title'))[0] ?? '', lines: await texts(page, '#goal-lines li') };
    const hint = ((await texts(page, '#hint'))[0] ?? '').replace(/^Suggestion: /, '');
    const agentSaid = (await texts(page, '#log li[data-speaker=agent] .text')).at(-1) ?? '';
    await page.getByTestId('input').fill(person(card, hint === '' ? undefined : hint, agentSaid));
    if (turn === 1 && shot) await shot(page);
    await page.getByTestId('send').click();
  }
  return (await texts(page, '#end-title'))[0] ?? '';
}

/** A study made of `config` in its folder `name`, served, and a browser page (its errors collected) for `fn`; all closed after. */
async function withStudyPage(name: string, config: ReturnType<typeof studyConfig>, fn: (o: { made: ReturnType<typeof createStudy>; store: StudyStore; base: string; page: Page; errors: string[] }) => Promise<void>): Promise<void> {
  const made = createStudy(join(tmp, name), config);
  const store = StudyStore.open(made.dir);
  const server = createStudyServer(store);
  const base = await server.listen(0, '127.0.0.1');
  const context = await launchChromium(tmp);
  mkdirSync(shots, { recursive: true });
  try {
    const { page, errors } = await pageWithErrors(context);
    await fn({ made, store, base, page, errors });
  } finally {
    await context.close();
    await server.close();
    store.close();
  }
}

test('a participant plays two conversations through the page, answers the rating; HTML shows as text; the admin page counts them; 390 px without sideways scrolling', { skip }, async () => {
  await withStudyPage('study', studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft', 'rule-soft'], participants: 2, sessionsPerParticipant: 3, seed: 2, questions: [{ id: 'satisfied', text: 'How satisfied are you with this conversation?', min: 1, max: 5 }] }), async ({ made, store, base, page, errors }) => {
    const code = made.participants[0]?.code as string;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/p/${code}`);
    await page.getByTestId('start').waitFor();
    assert.equal((await texts(page, '#progress'))[0], '0 of 3 conversations done');
    const shot = async (p: Page): Promise<void> => {
      await p.screenshot({ path: join(shots, 'participant-1280.png'), fullPage: true });
      await p.setViewportSize({ width: 390, height: 844 });
      assert.equal(await overflows(p), false, 'the participant page scrolls sideways at 390 px');
      await p.screenshot({ path: join(shots, 'participant-390.png'), fullPage: true });
      await p.setViewportSize({ width: 1280, height: 800 });
    };
    for (const number of [1, 2]) {
      const title = await playOnPage(page, code, number, number === 1 ? shot : undefined);
      assert.match(title, /^Task (not )?completed$/);
      assert.ok((await texts(page, '#end-lines li')).length >= 1, 'the outcome in words');
      await page.getByTestId('rate-satisfied-4').check();
      if (number === 1) await page.screenshot({ path: join(shots, 'participant-end-1280.png'), fullPage: true });
      if (number === 1) {
        // The agent's tool calls reach the person in words: body type, not code type; a call of the
        // person's own (playing the agent) is code type, dark on its tint (it was white on pale yellow).
        const styles = await page.$$eval('#log li[data-speaker=agent]', (els) => els.map((e) => (globalThis as unknown as { getComputedStyle(x: unknown): { fontFamily: string } }).getComputedStyle(e).fontFamily));
        assert.ok(styles.length > 0 && styles.every((f) => !f.includes('monospace')), `the agent's words in code type: ${styles.join(' | ')}`);
        const own = await page.$eval('#log', (log) => {
          const li = (log as unknown as { ownerDocument: { createElement(t: string): { className: string; textContent: string } } }).ownerDocument.createElement('li');
          li.className = 'me tool';
          li.textContent = 'no_flight(name=Kim)';
          (log as unknown as { append(x: unknown): void }).append(li);
          const st = (globalThis as unknown as { getComputedStyle(x: unknown): { color: string; backgroundColor: string; fontFamily: string } }).getComputedStyle(li);
          return { color: st.color, background: st.backgroundColor, font: st.fontFamily };
        });
        assert.deepEqual(own, { color: 'rgb(29, 29, 31)', background: 'rgb(255, 248, 225)', font: own.font });
        assert.ok(own.font.includes('monospace'), own.font);
      }
      await page.getByTestId('next').click();
      await page.waitForFunction((want) => (globalThis as unknown as Dom).document.getElementById('progress').textContent === want, `${number} of 3 conversations done`);
    }
    const rows = store.sessions('finished');
    assert.equal(rows.length, 2);
    for (const r of rows) assert.deepEqual(r.answers, { satisfied: 4 });
    // Nothing on the page names the agent.
    const body = ((await texts(page, 'body'))[0] ?? '').toLowerCase();
    assert.ok(!body.includes('rl-soft') && !body.includes('rule-soft'), 'the page names the agent');

    // HTML typed by the other participant comes back as text, no element made of it.
    const other = made.participants[1]?.code as string;
    await page.goto(`${base}/p/${other}`);
    await page.getByTestId('start').click();
    await yourTurn(page);
    const html = '<img src=x onerror="document.title=\'owned\'"><b>bold</b>';
    await page.getByTestId('input').fill(html);
    await page.getByTestId('send').click();
    await yourTurn(page);
    assert.equal((await texts(page, '#log li[data-speaker=user] .text'))[0], html);
    assert.equal(await page.locator('#log img, #log b').count(), 0);
    assert.notEqual(await page.title(), 'owned');

    // The admin page: the token in a form, the counts per agent.
    await page.goto(`${base}/admin`);
    await page.getByTestId('token').fill(made.adminToken);
    await page.getByTestId('open-admin').click();
    await page.getByTestId('board').waitFor();
    const agentRows = await page.$$eval('#agents tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
    assert.deepEqual(agentRows.map((r) => r[0]), ['rl-soft', 'rule-soft']);
    assert.equal(agentRows.reduce((n, r) => n + Number(r[3]), 0), 2, 'finished sessions');
    assert.deepEqual(await texts(page, '#participants td:first-child'), ['p1', 'p2']);
    assert.ok(!page.url().includes(made.adminToken), 'the token in the URL');
    await page.screenshot({ path: join(shots, 'admin-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await overflows(page), false, 'the admin page scrolls sideways at 390 px');
    await page.screenshot({ path: join(shots, 'admin-390.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });
});

test('the page tells a participant in one line when a restart set their conversation aside and lets them start the next; a closed study shows no start button; a wrong typed code is answered for a typed code', { skip }, async () => {
  const made = createStudy(join(tmp, 'restart'), studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft'], participants: 2, sessionsPerParticipant: 3, seed: 4 }));
  const store = StudyStore.open(made.dir);
  let server = createStudyServer(store);
  let base = await server.listen(0, '127.0.0.1');
  const context = await launchChromium(tmp);
  try {
    const { page, errors } = await pageWithErrors(context);
    const code = made.participants[0]?.code as string;
    await page.goto(`${base}/p/${code}`);
    await page.getByTestId('start').click();
    await yourTurn(page);
    assert.equal(await page.getByTestId('home-note').isVisible(), false);
    // The server restarts under the conversation: the new one marks it abandoned.
    await server.close();
    server = createStudyServer(store);
    assert.equal(server.abandonedAtStart, 1);
    base = await server.listen(0, '127.0.0.1');
    await page.goto(`${base}/p/${code}`);
    await page.getByTestId('home-note').waitFor();
    assert.deepEqual(await texts(page, '[data-testid=home-note]'), ['Your last conversation was interrupted and set aside (it does not count): start the next one when you are ready.']);
    assert.equal(await page.getByTestId('start').isEnabled(), true);
    assert.equal((await texts(page, '#start'))[0], 'Start the next conversation');
    // It starts the next one; back home, the line is gone (it was about the one set aside).
    await page.getByTestId('start').click();
    await yourTurn(page);
    await page.goto(`${base}/p/${code}`);
    await page.getByTestId('start').waitFor();
    assert.equal(await page.getByTestId('home-note').isVisible(), false);

    // The study closed: no start button, the text says so.
    store.closeStudy();
    const other = made.participants[1]?.code as string;
    await page.goto(`${base}/p/${other}`);
    await page.getByTestId('home-text').waitFor();
    assert.equal((await texts(page, '#home-text'))[0], 'The study is closed. Thank you for taking part!');
    assert.equal(await page.getByTestId('start').isVisible(), false);

    // A wrong code typed on the start page.
    await page.goto(`${base}/`);
    await page.getByTestId('code').fill('not-a-code');
    await page.getByTestId('enter-code').click();
    await page.getByTestId('notice').waitFor();
    assert.deepEqual(await texts(page, '[data-testid=notice]'), ['This code is not one of this study: check the code (or the link) you were given and try again.']);
    assert.equal(await page.getByTestId('enter').isVisible(), true);
    assert.deepEqual(errors.filter((e) => !/status of 403/.test(e)), []);
  } finally {
    await context.close();
    await server.close();
    store.close();
  }
});

test('restaurant-task5-v2 at 360 px: the turns where the simulated user says nothing show the note and "Say nothing"; Enter on the empty line passes them; the task is completed', { skip }, async () => {
  await withStudyPage('silent', studyConfig({ env: 'restaurant-task5-v2', agents: ['rules'], participants: 1, sessionsPerParticipant: 1, seed: 3 }), async ({ made, base, page, errors }) => {
    const code = made.participants[0]?.code as string;
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${base}/p/${code}`);
    await page.getByTestId('start').waitFor();
    let passed = 0;
    const onWordless = async (p: Page): Promise<void> => {
      if (passed++ > 0) return;
      assert.equal((await texts(p, '#wordless p'))[0], 'The user has nothing new to say this turn. Say something anyway, or let the turn pass.');
      assert.equal(await overflows(p), false, 'the participant page scrolls sideways at 360 px');
      await p.screenshot({ path: join(shots, 'participant-wordless-360.png'), fullPage: true });
    };
    const person = restaurantUserParticipant(createRng(3));
    const title = await playOnPage(page, code, 1, undefined, { person, onWordless });
    assert.equal(title, 'Task completed');
    assert.ok(passed > 0, 'the silent turns reached the participant');
    assert.deepEqual(errors, []);
    process.stdout.write(`# study page, restaurant-task5-v2 vs rules: ${passed} silent turns passed with Enter\n`);
  });
});
