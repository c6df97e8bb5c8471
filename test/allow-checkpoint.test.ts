/**
 * `--allow-checkpoint` is about model files: given with a registered model's name it used to be
 * ignored without a word; every verb that has the flag now refuses it in one line.
 */
import { test } from 'node:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, oneLineError } from './cli.js';

test('--allow-checkpoint with a registered model is refused in one line by eval, dstc6 rank, chat and serve', () => {
  const never = (f: string): string => join(tmpdir(), 'dialogym-never', f);
  const want = (m: string): RegExp => new RegExp(`^error: --allow-checkpoint applies to model files; ${m.replace('+', '\\+')} is a registered model$`);
  oneLineError(cli('eval', '--model', 'rules', '--data', never('d.txt'), '--allow-checkpoint'), want('rules'), 2);
  oneLineError(cli('eval', '--model', 'tfidf+type', '--data', never('d.txt'), '--allow-checkpoint'), want('tfidf+type'), 2);
  oneLineError(cli('dstc6', 'rank', '--model', 'tfidf', '--data', never('d.json'), '--out', never('o.json'), '--allow-checkpoint'), want('tfidf'), 2);
  oneLineError(cli('chat', '--model', 'rules', '--allow-checkpoint'), want('rules'), 2);
  oneLineError(cli('serve', '--model', 'rules', '--port', '0', '--allow-checkpoint'), want('rules'), 2);
  // An unknown name is still reported as unknown, not as a registered model.
  oneLineError(cli('chat', '--model', 'no-such-model', '--allow-checkpoint'), /^error: .*no-such-model/, 2);
});
