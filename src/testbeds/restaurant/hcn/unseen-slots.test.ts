import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dialog, Turn } from '../../../core/dialog.js';
import type { KbFact } from '../../../formats/babi.js';
import { HcnLexicon, emptyTracker, trackTurn } from './entities.js';
import { CommitModel } from './commit.js';
import { TemplateSet, baseTemplate } from './templates.js';
import { asksFor, completeOnlyTemplates, extendScores, unseenSlots, type UnseenSlotInput } from './unseen-slots.js';

const CUISINES = ['thai', 'greek'];
const LOCATIONS = ['paris', 'rome', 'oslo'];
const DIETS = ['vegan', 'halal'];
/** 30 restaurants: shared cuisines, locations and diets; a phone of their own. */
const FACTS: KbFact[] = Array.from({ length: 30 }, (_, i) => [
  { entity: `r${i}`, attr: 'R_cuisine', value: CUISINES[i % 2] as string },
  { entity: `r${i}`, attr: 'R_location', value: LOCATIONS[i % 3] as string },
  { entity: `r${i}`, attr: 'R_diet', value: DIETS[Math.floor(i / 2) % 2] as string },
  { entity: `r${i}`, attr: 'R_phone', value: `r${i}_phone` },
  { entity: `r${i}`, attr: 'R_rating', value: String(i) },
]).flat();

const u = (text: string): Turn => ({ speaker: 'user', text });
const b = (text: string): Turn => ({ speaker: 'bot', text });

test('sharedTypes: the request attributes of the KB (many restaurants per value), not phone or rating', () => {
  const lex = HcnLexicon.fromFacts(FACTS);
  assert.deepEqual(lex.sharedTypes(), ['cuisine', 'diet', 'location']);
  assert.deepEqual(unseenSlots(lex, ['cuisine', 'location']), ['diet']);
  assert.deepEqual(new HcnLexicon([['thai', 'cuisine']]).sharedTypes(), [], 'no KB attributes without KB facts');
});

test('asksFor: a bot utterance saying the attribute name (singular or plural) and no entity', () => {
  const lex = HcnLexicon.fromFacts(FACTS);
  assert.equal(asksFor('any diet we should know about', 'diet', lex), true);
  assert.equal(asksFor('do you follow special diets', 'diet', lex), true);
  assert.equal(asksFor('a vegan diet then', 'diet', lex), false, 'names a value: not a question for the slot');
  assert.equal(asksFor('which cuisine', 'diet', lex), false);
});

/** Toy training dialogs: ask cuisine, ask location, say "looking", call (no diet slot anywhere). */
function dialogs(): Dialog[] {
  return CUISINES.flatMap((c, i) =>
    LOCATIONS.map((l, j) => ({
      id: `${i}-${j}`,
      turns: [u('hi'), b('which cuisine'), u(`${c} please`), b('where'), u(`in ${l}`), b('looking'), u('<SILENCE>'), b(`api_call ${c} ${l}`)],
    })),
  );
}

test('completeOnlyTemplates: actions the training dialogs took only once every slot was known', () => {
  const lex = HcnLexicon.fromFacts(FACTS);
  const templates = new TemplateSet(['which cuisine', 'where', 'looking', 'api_call <cuisine> <location>']);
  assert.deepEqual(completeOnlyTemplates(dialogs(), lex, templates, ['cuisine', 'location']), [2, 3]);
});

/** The scoring input of a history, with the given template probabilities. */
function input(history: readonly Turn[], probs: number[]): UnseenSlotInput {
  const lexicon = HcnLexicon.fromFacts(FACTS);
  const templates = new TemplateSet(['which cuisine', 'where', 'looking', 'api_call <cuisine> <location>']);
  const state = emptyTracker();
  for (const t of history) trackTurn(state, lexicon, t);
  const { mask, fills } = templates.mask(state);
  const byBase = new Map(templates.templates.map((t, i) => [baseTemplate(t), [i]] as const));
  return { lexicon, slots: ['diet'], byBase, completeOnly: new Set([2, 3]), history, state, probs: Float32Array.from(probs), mask, fills, candidateTemplates: [] };
}

test('extendScores: an action over the whole request (unseen slot filled from the dialog) beats its unextended form', () => {
  const history = [u('thai food in rome , vegan'), b('looking'), u('<SILENCE>')];
  const cands = ['api_call thai rome', 'api_call thai rome vegan', 'api_call thai rome halal', 'where'];
  const scores = Float32Array.from([1.9, -1, -1, 1.05]);
  extendScores(scores, cands, input(history, [0, 0.05, 0, 0.9]));
  assert.ok((scores[1] as number) > (scores[0] as number), `extended ${scores[1]} > unextended ${scores[0]}`);
  assert.equal(scores[2], -1, 'a value the user did not give');
  // The value can also come from the last api_call of the history.
  const later = [...history, b('api_call thai rome vegan'), u('thanks')];
  const s2 = Float32Array.from([1.9, -1, -1, 1.05]);
  extendScores(s2, cands, input(later, [0, 0.05, 0, 0.9]));
  assert.ok((s2[1] as number) > (s2[0] as number));
});

test('extendScores: asks for an uncovered unseen slot when the policy would act on a complete request', () => {
  const history = [u('thai food in rome'), b('looking'), u('<SILENCE>')];
  const cands = ['api_call thai rome', 'any diet we should know about', 'where'];
  const base = (): Float32Array => Float32Array.from([1.9, -1, 1.05]);
  const ready = { ...input(history, [0, 0.05, 0, 0.9]), candidateTemplates: [[3], [], [1]] };
  const s = base();
  extendScores(s, cands, ready);
  assert.equal(s[1], 3, 'the question first');
  // Not while the policy still asks for a trained slot (its best action is not a complete-request one).
  const asking = { ...input(history, [0, 0.9, 0, 0.05]), candidateTemplates: [[3], [], [1]] };
  const s2 = base();
  extendScores(s2, cands, asking);
  assert.equal(s2[1], -1);
  // Nor when no candidate is a complete-request action … unless the policy's own choice is one.
  const noneOffered = { ...input(history, [0, 0.05, 0, 0.9]), candidateTemplates: [[], [], [1]] };
  const s4 = Float32Array.from([-1, -1, 1.05]);
  extendScores(s4, ['api_call thai paris', 'any diet we should know about', 'where'], noneOffered);
  assert.equal(s4[1], -1);
  const s5 = Float32Array.from([-1, -1, 1.05]);
  extendScores(s5, ['api_call thai paris', 'any diet we should know about', 'where'], { ...noneOffered, policyChoice: () => 2 });
  assert.equal(s5[1], 3);
  // Not once the dialog gave the slot.
  const given = { ...input([u('thai food in rome , halal'), b('looking'), u('<SILENCE>')], [0, 0.05, 0, 0.9]), candidateTemplates: [[3], [], [1]] };
  const s3 = base();
  extendScores(s3, cands, given);
  assert.equal(s3[1], -1);
});

test('the mention filter keeps mentions of a type it never saw in training', () => {
  const filter = new CommitModel(['bias', 'type:cuisine'], Float32Array.from([-5, 0]));
  const delex = ['i', 'eat', '<x>'];
  assert.equal(filter.keep(delex, { index: 2, token: 'thai', type: 'cuisine', ordinal: 0 }), false);
  assert.equal(filter.keep(delex, { index: 2, token: 'vegan', type: 'diet', ordinal: 0 }), true);
});
