/**
 * The `rules` agent of the restaurant environments reads a person's wording: the api_call tool's
 * cuisines and locations are its vocabulary (as the chat's KB is), so a bare or punctuated value
 * (`london`, `London.`, `bombay, please`) answers its question; the datasets' wording plays as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Turn } from '../../core/dialog.js';
import { make, type ToolSpec } from '../../env/env.js';
import '../../index.js'; // every testbed, loaded
import { rulesBotForTools } from './agents.js';

const u = (text: string): Turn => ({ speaker: 'user', text });
const b = (text: string): Turn => ({ speaker: 'bot', text });

test("rules agent: a person's bare or punctuated cuisine or location answers its question (the api_call enums are its vocabulary)", () => {
  const tools = make('restaurant-task5-v2').reset({ seed: 1 }).info['tools'] as ToolSpec[];
  const asked = [u('hello'), b('hello what can i help you with today'), u('i want french food'), b("i'm on it"), u('<SILENCE>'), b('where should it be')];
  for (const said of ['london', 'London.', 'bombay, please', 'in Bombay!', 'the location you want is london']) {
    assert.equal(rulesBotForTools(tools).respond([...asked, u(said)]), 'how many people would be in your party', said);
  }
  const cuisine = [u('hello'), b('hello what can i help you with today'), u('a table in rome please'), b("i'm on it"), u('<SILENCE>'), b('any preference on a type of cuisine')];
  assert.equal(rulesBotForTools(tools).respond([...cuisine, u('Italian!')]), 'how many people would be in your party');
  // DSTC6's tool has an atmosphere: DSTC6 wording, and its KB's values read the same way.
  const d6 = make('dstc6-task5-tst1-v2').reset({ seed: 1 }).info['tools'] as ToolSpec[];
  const d6asked = [u('hello'), b('hello what can i help you with today'), u('may i have a table with a romantic atmosphere in madrid'), b("i'm on it"), u('<silence>'), b('any preference on a type of cuisine')];
  assert.equal(rulesBotForTools(d6).respond([...d6asked, u('Spanish.')]), 'how many people would be in your party');
});
