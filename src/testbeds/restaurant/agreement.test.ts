import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dialog } from '../../core/dialog.js';
import { ConfigError } from '../../core/errors.js';
import { agreementIssue, candidateCoverage, checkKbAgreement, kbCoverage } from './agreement.js';

const dialog = (id: string, ...kb: string[]): Dialog => ({
  id,
  turns: [{ speaker: 'user', text: 'hi' }, ...kb.map((text) => ({ speaker: 'kb' as const, text })), { speaker: 'bot', text: `answer ${id}` }],
});
const fact = (entity: string) => ({ entity, attr: 'R_phone', value: `${entity}_phone` });

test('kbCoverage: the distinct restaurants of the KB-result turns (bAbI R_ and DSTC6 r_), found by name in the KB', () => {
  const dialogs = [dialog('1', 'resto_a R_phone resto_a_phone', 'resto_a R_cuisine thai', 'api_call no result'), dialog('2', 'b_place r_location london', 'resto_c R_rating 4')];
  assert.deepEqual(kbCoverage(dialogs, [fact('resto_a'), fact('other')]), { found: 1, total: 3, missing: ['b_place', 'resto_c'] });
  assert.deepEqual(kbCoverage([dialog('x')], []), { found: 0, total: 0, missing: [] });
});

test('agreementIssue: under half found is an issue with the figure and three names; half or more, or nothing to find, is none', () => {
  const names = Array.from({ length: 2400 }, (_, i) => `r${i}`);
  const dialogs = [dialog('1', ...names.map((n) => `${n} R_phone x`))];
  assert.equal(agreementIssue(kbCoverage(dialogs, []), 'restaurants', 'the training dialogs'), 'names 0 of the 2,400 restaurants in the training dialogs (not r0, r1, r2, …)');
  assert.equal(agreementIssue(kbCoverage(dialogs, names.slice(0, 1199).map(fact)), 'restaurants', 'x'), 'names 1,199 of the 2,400 restaurants in x (not r1199, r1200, r1201, …)');
  assert.equal(agreementIssue(kbCoverage(dialogs, names.slice(0, 1200).map(fact)), 'restaurants', 'x'), undefined);
  assert.equal(agreementIssue({ found: 0, total: 0, missing: [] }, 'restaurants', 'x'), undefined);
  assert.equal(agreementIssue({ found: 0, total: 1, missing: ['a'] }, 'answers', 'the --data dialogs'), 'holds 0 of the one answer in the --data dialogs (not a)');
  assert.throws(() => checkKbAgreement(dialogs, [fact('r0')], 'the training dialogs'), (e: unknown) => e instanceof ConfigError && e.message === 'kb names 1 of the 2,400 restaurants in the training dialogs (not r1, r2, r3, …)');
  assert.equal(checkKbAgreement(dialogs, names.map(fact)).found, 2400);
});

test('candidateCoverage: the distinct bot answers found among the candidates', () => {
  const dialogs = [dialog('1'), dialog('2'), dialog('1')];
  assert.deepEqual(candidateCoverage(dialogs, ['answer 1', 'unrelated']), { found: 1, total: 2, missing: ['answer 2'] });
});
