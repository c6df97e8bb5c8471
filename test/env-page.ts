/**
 * The `serve --env` page (src/serve/web/env.{html,js}) read and played through playwright: the
 * state a person sees, rebuilt from the DOM's text only (the goal card, the hint, the dialog, the
 * agent's view, the tool forms), and a person's move typed in the input or filled in the forms.
 * For bench/serve-env-browser.bench.ts; the scripted people of test/serve-env-people.ts and the
 * testbeds' `…UserParticipant`s play on what it returns.
 */
import type { Page } from 'playwright-core';
import type { ToolCall } from '../src/env/env.js';
import type { SessionState } from '../src/serve/env-session.js';

/** The little of the DOM read here (the tests build without the DOM library). */
interface El {
  readonly textContent: string | null;
  readonly hidden: boolean;
  readonly disabled: boolean;
  readonly value: string;
  readonly type: string;
  readonly tagName: string;
  readonly classList: { contains(c: string): boolean };
  readonly childNodes: ArrayLike<El>;
  querySelector(s: string): El | null;
  querySelectorAll(s: string): Iterable<El>;
  getAttribute(name: string): string | null;
}
type Doc = El & { getElementById(id: string): El };

/** The page after a move: the person's turn again (input enabled), or the end screen. */
export async function pageSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const d = (globalThis as unknown as { document: Doc }).document;
    return !d.getElementById('outcome').hidden || (d.getElementById('status').textContent === 'your turn' && !d.getElementById('text').disabled);
  });
}

/** "New dialog", then the new dialog's first turn of the person. */
export async function pageNewDialog(page: Page): Promise<void> {
  await page.click('#new');
  await page.waitForFunction(() => (globalThis as unknown as { document: Doc }).document.getElementById('outcome').hidden);
  await pageSettled(page);
}

/** What the page shows, as the session state a person acts on (only text read off the DOM). */
export function pageState(page: Page): Promise<SessionState> {
  return page.evaluate((): SessionState => {
    const d = (globalThis as unknown as { document: Doc }).document;
    const text = (e: El | null | undefined): string => (e ? (e.textContent ?? '') : '');
    const role = /you are the agent/.test(text(d.getElementById('title'))) ? 'agent' : 'user';
    const turns = [...d.querySelectorAll('#log li')].flatMap((li) => {
      if (li.classList.contains('notice')) return [];
      // A block of KB lines (one search's results) is a line each.
      if (li.classList.contains('kb')) return text(li).split('\n').map((t) => ({ speaker: 'kb', text: t }));
      const speaker = li.classList.contains('me') ? role : role === 'user' ? 'agent' : 'user';
      return [{ speaker, text: text(li.childNodes[1]) }];
    });
    const goal = d.getElementById('goal');
    const hint = d.getElementById('hint');
    const view = d.getElementById('view');
    const agentView = view.hidden ? undefined : [...view.querySelectorAll('[data-testid="view-section"]')].map((s) => {
      const title = text(s.querySelector('h3'));
      const table = s.querySelector('table');
      if (table) return { kind: 'table', title, columns: [...table.querySelectorAll('thead th')].map(text), rows: [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map(text)) };
      return { kind: 'text', title, lines: [...s.querySelectorAll('li')].map(text) };
    });
    const toolsBox = d.getElementById('tools');
    const current = d.getElementById('tool').value;
    // The selected tool's fields as a schema: a select's options as an enum; the others by input type.
    const properties = Object.fromEntries([...d.querySelectorAll('#fields [data-testid^="arg-"]')].map((c) => {
      const name = c.getAttribute('name');
      if (c.tagName === 'SELECT') return [name, { enum: [...c.querySelectorAll('option')].map((o) => o.getAttribute('value')).filter((v) => v !== '') }];
      return [name, { type: c.type === 'number' ? 'number' : c.type === 'checkbox' ? 'boolean' : 'string' }];
    }));
    const tools = toolsBox.hidden ? undefined : [...d.querySelectorAll('#tool option')].map((o) => {
      const name = o.getAttribute('value');
      return { type: 'function', function: { name, description: name === current ? text(d.getElementById('tool-description')) : '', parameters: { type: 'object', properties: name === current ? properties : {} } } };
    });
    const ended = !d.getElementById('outcome').hidden;
    return {
      env: (/^(\S+) ·/.exec(text(d.getElementById('title'))) || [])[1] ?? '',
      role,
      ...(goal.hidden ? {} : { goalCard: { title: text(d.getElementById('goal-title')), lines: [...d.querySelectorAll('#goal-lines li')].map(text) } }),
      ...(hint.hidden ? {} : { hint: text(hint) }),
      turns,
      waiting: ended ? 'ended' : 'person',
      ...(!ended && !d.getElementById('wordless').hidden ? { wordless: true } : {}),
      ...(agentView ? { agentView } : {}),
      ...(tools ? { tools } : {}),
    } as SessionState;
  });
}

/** Types `move` in the input and sends it ('' on a wordless turn: "Say nothing"), or fills the tool's form and calls it; then waits for the page to settle. */
export async function pageSend(page: Page, move: string | ToolCall): Promise<void> {
  if (move === '' && (await page.isVisible('#wordless'))) await page.click('#pass');
  else if (typeof move === 'string') {
    await page.fill('#text', move);
    await page.click('#send');
  } else {
    if ((await page.inputValue('#tool')) !== move.tool) await page.selectOption('#tool', move.tool);
    for (const [k, v] of Object.entries(move.arguments)) {
      const c = page.locator(`#fields [data-testid="arg-${k}"]`);
      if ((await c.count()) !== 1) throw new Error(`${move.tool}: no field ${k} on the page's form`);
      // The page's inputs all have a type; its selects none.
      const type = await c.getAttribute('type');
      const value = typeof v === 'string' ? v : JSON.stringify(v);
      if (type === null) await c.selectOption(value);
      else if (type === 'checkbox') await c.setChecked(v === true);
      else await c.fill(Array.isArray(v) ? v.join(', ') : value);
    }
    await page.click('#call');
  }
  await pageSettled(page);
}

/** The end screen: success (its class) and its lines. */
export async function pageOutcome(page: Page): Promise<{ success: boolean; lines: string[] }> {
  const success = (await page.getAttribute('#outcome', 'class')) === 'success';
  return { success, lines: await page.$$eval('#outcome p', (ps) => ps.map((p) => p.textContent ?? '')) };
}
