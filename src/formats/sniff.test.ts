import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError } from '../core/errors.js';
import { parseBabiCandidates, parseBabiDialogs, parseBabiKb } from './babi.js';
import { parseAirData } from './airdialogue.js';
import { parseDstc6Results } from './dstc6.js';
import { MisreadError, sniff } from './sniff.js';

const DIALOGS = '1 hello\thello what can i help you with today\n2 <SILENCE>\tapi_call italian rome four cheap\n3 resto_rome_cheap_italian_1stars R_cuisine italian\n\n';
const KB = '1 resto_a R_cuisine\titalian\n1 resto_a R_location\trome\n';
const DSTC6_KB = '1 resto_a R_cuisine\titalian\n1 resto_a R_atmosphere\tcasual\n';
const TASK6_KB = '1 pizza_hut R_cuisine italian\n1 pizza_hut R_phone 01223_323737\n';
const CANDS = '1 hello what can i help you with today\n1 api_call italian rome four cheap\n';

test('sniff tells every kind of file dialogym reads apart', () => {
  assert.equal(sniff(DIALOGS), 'babi-dialogs');
  assert.equal(sniff(KB), 'babi-kb');
  assert.equal(sniff(TASK6_KB), 'babi-kb');
  assert.equal(sniff(DSTC6_KB), 'dstc6-kb');
  assert.equal(sniff(CANDS), 'babi-candidates');
  assert.equal(sniff('[{"dialog_id": "d", "candidates": [{"utterance": "hi", "candidate_id": "c"}], "utterances": ["hi"]}]'), 'dstc6-data');
  assert.equal(sniff('[{"dialog_id": "d", "lst_candidate_id": [{"candidate_id": "c", "rank": 1}]}]'), 'dstc6-results');
  assert.equal(sniff('{"intent": {"goal": "book"}, "dialogue": ["customer: hi"]}\n'), 'airdialogue-data');
  assert.equal(sniff('{"kb": [{"flight_number": 1000}], "reservation": 0}\n'), 'airdialogue-kb');
  assert.equal(sniff('movie\tactor\tgenre\nalien\tUNK\tscifi\nheat\tal pacino\tcrime\n'), 'infobot-kb');
  assert.equal(sniff(Buffer.from('DIALOGYM\0\0\0\x01')), 'model-file');
  assert.equal(sniff(Buffer.from('SQLite format 3\0rest')), 'sqlite');
  assert.equal(sniff('hello world\n'), undefined);
  assert.equal(sniff(''), undefined);
});

test('a reader given another kind of file says what it looks like; a broken file of its own kind keeps the parser reason', () => {
  assert.throws(() => parseBabiDialogs(KB, 'kb.txt'), (e: unknown) => e instanceof MisreadError && e.looksLike === 'babi-kb' && e.message === 'kb.txt looks like a bAbI KB file, not a bAbI dialog file');
  assert.throws(() => parseBabiCandidates(DIALOGS, 'd.txt'), /^MisreadError: d\.txt looks like a bAbI dialog file, not a bAbI candidates file$/);
  assert.throws(() => parseBabiKb(CANDS, 'c.txt'), /^MisreadError: c\.txt looks like a bAbI candidates file, not a bAbI or DSTC6 KB file$/);
  assert.throws(() => parseAirData('{"kb": [{"flight_number": 1000}], "reservation": 0}\n', 'kb.json'), /kb\.json looks like an AirDialogue KB file \(JSON Lines\), not an AirDialogue data file/);
  assert.throws(() => parseDstc6Results('[{"dialog_id": "d", "candidates": [], "utterances": ["hi"]}]', 'data.json'), /data\.json looks like a DSTC6 dataset file \(JSON\), not a DSTC6 result or answers file/);
  // Its own kind, broken: the parser's reason, with the line.
  assert.throws(() => parseBabiDialogs('1 hello\thi\n3 bye\tbye\n\n', 'd.txt'), (e: unknown) => e instanceof FormatError && !(e instanceof MisreadError) && e.message === 'd.txt:2: ID 3 does not follow ID 1 (IDs must increase by one)');
  // A KB file is fine for the KB reader, in either layout.
  assert.equal(parseBabiKb(DSTC6_KB, 'kb.txt').facts.length, 2);
});
