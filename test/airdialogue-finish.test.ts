/**
 * A person playing the customer asks the learned agent to act now (`/done` in the REPL, POST
 * …/finish in the API, "Ask the agent to finish" on the page): the agent answers once more, its
 * state model writes the action from the dialogue so far, and the action is scored as when the
 * agent ends by itself.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AirChat, describeAction, describeScore } from '../src/testbeds/airdialogue/chat/chat.js';
import { InputError } from '../src/core/errors.js';
import { airChatBackend } from '../src/testbeds/airdialogue/chat/backend.js';
import { defaultWebDir, serveChats } from '../src/serve/server.js';
import { learnedAgent } from '../src/testbeds/airdialogue/learned/policy.js';
import { loadAirModels } from '../src/testbeds/airdialogue/learned/train.js';
import { scoreAction } from '../src/testbeds/airdialogue/scorer.js';
import { createRng } from '../src/core/rng.js';
import { tinyAirModelFile } from './airdialogue-chat-fixture.js';
import { launchChromium, noChromium, pageWithErrors } from './browser.js';
import { cliPath } from './shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-air-finish-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const modelFile = tinyAirModelFile(join(tmp, 'air.dgm'));
const models = loadAirModels(modelFile);
const SAID = ['hello, I want to book a flight', 'my name is Sarah Lee'];

test('AirChat.finishNow: the agent acts after the turns so far, the action is scored; earlier turns unchanged', () => {
  const chat = new AirChat(models, { role: 'customer', seed: 5 });
  for (const t of SAID) assert.equal(chat.say(t).end, null, 'the agent has not acted by itself yet');
  const before = chat.turns.slice();
  const step = chat.finishNow();
  assert.deepEqual(chat.turns.slice(0, before.length), before);
  assert.equal(step.turns.length, 2);
  assert.deepEqual(step.turns[0], { speaker: 'customer', text: '(asks the agent to finish now)' });
  assert.equal(step.turns[1]?.speaker, 'agent');
  const end = step.end;
  assert.ok(end && end.action, 'an action');
  assert.equal(end.truncated, false);
  assert.deepEqual(end.expected, chat.context.expected);
  assert.deepEqual(end.score, scoreAction(end.action, chat.context.expected, chat.context.kb));
  // The same as the learned agent policy made to act at its third turn on the same words.
  const agent = learnedAgent(models, { maxAgentTurns: 3 })(chat.context.kb, createRng(5).fork('agent'));
  assert.equal(agent.respond(SAID[0] as string).action, undefined);
  assert.equal(agent.respond('my name is Sarah Lee').action, undefined);
  assert.deepEqual(agent.respond('').action, end.action);
  // Over: no second end; playing the agent: refused.
  assert.throws(() => chat.finishNow(), (e: unknown) => e instanceof InputError && /the dialogue is over/.test(e.message));
  const agentSide = new AirChat(models, { role: 'agent', seed: 5 });
  assert.throws(() => agentSide.finishNow(), (e: unknown) => e instanceof InputError && /^you play the agent: end the dialogue with an action/.test(e.message));
});

test('the REPL: /done playing the customer prints the agent\'s action, the expected one and the score', () => {
  const r = spawnSync(process.execPath, [cliPath, 'airdialogue', 'chat', '--model', modelFile, '--role', 'customer', '--seed', '5'], { input: [...SAID, '/done', '/done'].join('\n') + '\n', encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const chat = new AirChat(models, { role: 'customer', seed: 5 });
  for (const t of SAID) chat.say(t);
  const end = chat.finishNow().end!;
  const out = r.stdout.trimEnd().split('\n');
  const at = out.indexOf('customer: (asks the agent to finish now)');
  assert.ok(at > 0, r.stdout);
  assert.deepEqual(out.slice(at + 2), [
    `end: the agent acted: ${describeAction(end.action)}`,
    `expected: ${describeAction(end.expected)}`,
    describeScore(end.score),
    '(dialogue over: /new for another, /quit to leave)',
    '(the dialogue is over; start a new one)',
  ]);
  const agentSide = spawnSync(process.execPath, [cliPath, 'airdialogue', 'chat', '--model', modelFile, '--role', 'agent', '--seed', '5'], { input: '/done\n', encoding: 'utf8' });
  assert.match(agentSide.stdout, /^\(you play the agent: end the dialogue with an action, e\.g\. \/book 1004 Emily Edwards\)$/m);
});

test('the API: POST …/finish gives what AirChat gives; playing the agent it is a one-line 400', async () => {
  const server = serveChats([{ testbed: 'airdialogue', chat: airChatBackend({ model: 'air.dgm', models }) }], { logError: () => {}, webDir: defaultWebDir() });
  try {
    const post = async (url: string, payload?: object) => {
      const r = await server.app.inject({ method: 'POST', url, ...(payload ? { payload } : {}) });
      return { status: r.statusCode, json: JSON.parse(r.body) };
    };
    const c = await post('/api/airdialogue/sessions', { role: 'customer', seed: 5 });
    for (const text of SAID) await post(`/api/airdialogue/sessions/${c.json.id}/messages`, { text });
    const local = new AirChat(models, { role: 'customer', seed: 5 });
    for (const t of SAID) local.say(t);
    const f = await post(`/api/airdialogue/sessions/${c.json.id}/finish`);
    assert.equal(f.status, 200);
    assert.deepEqual(f.json, JSON.parse(JSON.stringify(local.finishNow())));
    const again = await post(`/api/airdialogue/sessions/${c.json.id}/finish`);
    assert.deepEqual(again, { status: 400, json: { error: 'the dialogue is over; start a new one' } });
    const a = await post('/api/airdialogue/sessions', { role: 'agent', seed: 5 });
    const refused = await post(`/api/airdialogue/sessions/${a.json.id}/finish`);
    assert.equal(refused.status, 400);
    assert.match(refused.json.error, /^you play the agent: end the dialogue with an action/);
    assert.equal((await post('/api/airdialogue/sessions/nope/finish')).status, 404);
  } finally {
    await server.close();
  }
});

test('in a browser: "Ask the agent to finish" ends the dialogue with the agent\'s action and the score', { skip: noChromium, timeout: 120_000 }, async () => {
  const server = serveChats([{ testbed: 'airdialogue', chat: airChatBackend({ model: 'air.dgm', models }) }], { logError: () => {}, webDir: defaultWebDir() });
  const base = await server.listen(0, '127.0.0.1');
  const context = await launchChromium(tmp);
  try {
    const { page, errors } = await pageWithErrors(context);
    await page.goto(base + '/');
    await page.waitForURL(base + '/airdialogue');
    await page.waitForSelector('[data-testid=status][data-ready=true]');
    await page.fill('[data-testid=seed]', '5');
    await page.click('[data-testid=new-dialogue]');
    await page.waitForSelector('[data-testid=status][data-ready=true]');
    const turns = page.locator('[data-testid=model-turn]');
    for (const [i, text] of SAID.entries()) {
      await page.fill('[data-testid=input]', text);
      await page.press('[data-testid=input]', 'Enter');
      await turns.nth(i).waitFor();
    }
    await page.click('[data-testid=act-finish]');
    await page.waitForSelector('[data-testid=status][data-over=true]');
    const local = new AirChat(models, { role: 'customer', seed: 5 });
    for (const t of SAID) local.say(t);
    const end = local.finishNow().end!;
    assert.equal(await page.textContent('[data-testid=score]'), `Score ${end.score.total.toFixed(3)}`);
    assert.equal(await page.isDisabled('[data-testid=act-finish]'), true);
    // Playing the agent, the button is not shown.
    await page.selectOption('[data-testid=role]', 'agent');
    await page.waitForSelector('[data-testid=status][data-ready=true]');
    assert.equal(await page.isVisible('[data-testid=act-finish]'), false);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await server.close();
  }
});
