/**
 * AirDialogue at full size: the verbs on files as large as the full release (321,459 train
 * dialogues; `train_kb.json` about 2.8 GB, `train_data.json` about 0.5 GB), which the test suite
 * cannot hold. The files are written here by repeating the real sample's lines
 * (../shared/data/airdialogue) with the customers' names changed (FIRST_NAMES × LAST_NAMES), at
 * 50,000 lines and at the release's 321,459 lines, then each verb runs in its own process and
 * prints its time, throughput and peak RSS:
 *
 * - the whole-file reader's 256 MiB bound refuses the full KB file; the streams read it;
 * - `airdialogue logic`, `score`, `score --pred` (constant memory);
 * - the training set as `airdialogue train` keeps it (`LearnedStore` of every line), without
 *   training: bytes a dialogue, time, peak RSS;
 * - `airdialogue train --max-dialogues` (seconds per 10,000 dialogues and epoch),
 *   `eval --max-dialogues` with and without BLEU;
 * - `airdialogue chat --line 321000` (the line found by scanning newlines).
 *
 * Environment: AIR_FULL_LINES (default "50000,321459"), AIR_FULL_TRAIN (dialogues of the train run,
 * default 1000), AIR_FULL_DIR (scratch folder, default a temp folder; removed at the end unless
 * AIR_FULL_KEEP=1). Needs about 4 GB of disk at full size. Figures depend on the machine's load:
 * the load average is printed with them.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { readTextFile } from '../src/core/files.js';
import { airExamples, pyJson, type DataLine } from '../src/formats/airdialogue.js';
import { FIRST_NAMES, LAST_NAMES } from '../src/testbeds/airdialogue/facts.js';
import { LearnedStore } from '../src/testbeds/airdialogue/learned/data.js';
import { airDir, cliPath } from '../test/shared-data.js';

const MIB = 1024 * 1024;
const sizes = (process.env.AIR_FULL_LINES ?? '50000,321459').split(',').map(Number);
const trainDialogues = Number(process.env.AIR_FULL_TRAIN ?? 1000);
const here = fileURLToPath(import.meta.url);

/** Child mode: build the LearnedStore of a data/KB pair and print its figures as JSON. */
if (process.argv[2] === '--store') {
  const t0 = performance.now();
  const store = LearnedStore.from(airExamples(process.argv[3]!, process.argv[4]!));
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write(JSON.stringify({ dialogues: store.length, bytes: store.bytes, words: store.distinctWords, seconds, heapMiB: process.memoryUsage().heapUsed / MIB }) + '\n');
  process.exit(0);
}

if (!existsSync(join(airDir, 'train_data.json'))) {
  process.stdout.write(`skipped: ${airDir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}

const dir = process.env.AIR_FULL_DIR ?? mkdtempSync(join(tmpdir(), 'dialogym-air-full-'));
mkdirSync(dir, { recursive: true });
// Peak RSS of a child process: a module it imports first reports it when the process exits.
const rssHook = join(dir, 'maxrss.mjs');
writeFileSync(rssHook, "import { writeSync } from 'node:fs';\nprocess.on('exit', () => writeSync(2, `\\nmaxrss-kib ${process.resourceUsage().maxRSS}\\n`));\n");

const load = () => loadavg()[0]!.toFixed(1);

/** Writes `n` data, KB and prediction lines: sample line i mod 802, the customer renamed. */
async function writeFiles(n: number): Promise<{ data: string; kb: string; pred: string }> {
  const sampleData = readFileSync(join(airDir, 'train_data.json'), 'utf8').trimEnd().split('\n');
  const sampleKb = readFileSync(join(airDir, 'train_kb.json'), 'utf8').trimEnd().split('\n');
  const files = { data: join(dir, `train_data_${n}.json`), kb: join(dir, `train_kb_${n}.json`), pred: join(dir, `pred_${n}.json`) };
  const out = { data: createWriteStream(files.data), kb: createWriteStream(files.kb), pred: createWriteStream(files.pred) };
  const write = async (s: ReturnType<typeof createWriteStream>, text: string) => {
    if (!s.write(text)) await once(s, 'drain');
  };
  for (let i = 0; i < n; i++) {
    const k = i % sampleData.length;
    const d = JSON.parse(sampleData[k]!) as DataLine;
    const name = `${FIRST_NAMES[i % FIRST_NAMES.length]!} ${LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length]!}`;
    const old = d.intent.name;
    const rename = (s: string) => s.split(new RegExp(old.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i')).join(name);
    d.intent.name = name;
    d.action.name = rename(d.action.name);
    d.expected_action.name = rename(d.expected_action.name);
    if (d.dialogue) d.dialogue = d.dialogue.map(rename);
    await write(out.data, pyJson(d) + '\n');
    await write(out.kb, sampleKb[k]! + '\n');
    await write(out.pred, pyJson(d.expected_action) + '\n');
  }
  await Promise.all(Object.values(out).map(async (s) => {
    s.end();
    await once(s, 'finish');
  }));
  return files;
}

/** Runs the CLI (or this file in child mode) and returns seconds, peak RSS and output. */
function run(args: readonly string[], input = ''): { seconds: number; rssMiB: number; stdout: string; stderr: string; code: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', rssHook, ...args], { encoding: 'utf8', input, maxBuffer: 64 * MIB });
  const seconds = (performance.now() - t0) / 1000;
  const m = /maxrss-kib (\d+)/.exec(r.stderr);
  return { seconds, rssMiB: m ? Number(m[1]) / 1024 : Number.NaN, stdout: r.stdout, stderr: r.stderr.replace(/\n?maxrss-kib \d+\n/, ''), code: r.status ?? -1 };
}

function report(what: string, lines: number, bytes: number, r: ReturnType<typeof run>): void {
  if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${r.stderr.trim().split('\n').at(-1)}`);
  const rate = bytes > 0 ? `${(bytes / MIB / r.seconds).toFixed(0).padStart(4)} MiB/s` : '     —     ';
  process.stdout.write(
    `${what.padEnd(50)} ${String(lines).padStart(7)} lines  ${r.seconds.toFixed(1).padStart(6)} s  ${String(Math.round(lines / r.seconds)).padStart(6)} lines/s  ${rate}  peak RSS ${r.rssMiB.toFixed(0).padStart(5)} MiB  (load ${load()})\n`,
  );
}

const model = join(dir, 'model.dgm');
try {
  for (const n of sizes) {
    const t0 = performance.now();
    const f = await writeFiles(n);
    const bytes = { data: statSync(f.data).size, kb: statSync(f.kb).size, pred: statSync(f.pred).size };
    process.stdout.write(`\n${n} lines: wrote train_data ${(bytes.data / MIB).toFixed(0)} MiB, train_kb ${(bytes.kb / MIB).toFixed(0)} MiB, predictions ${(bytes.pred / MIB).toFixed(0)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    try {
      readTextFile(f.kb);
      process.stdout.write(`whole-file reader: read the KB file (${(bytes.kb / MIB).toFixed(0)} MiB, under its bound)\n`);
    } catch (e) {
      process.stdout.write(`whole-file reader: ${(e as Error).message.replace(dir, '…')}\n`);
    }
    const both = bytes.data + bytes.kb;
    report('airdialogue logic', n, both, run([cliPath, 'airdialogue', 'logic', '--data', f.data, '--kb', f.kb]));
    report('airdialogue score (human mode)', n, both, run([cliPath, 'airdialogue', 'score', '--data', f.data, '--kb', f.kb]));
    report('airdialogue score --pred', n, both + bytes.pred, run([cliPath, 'airdialogue', 'score', '--data', f.data, '--kb', f.kb, '--pred', f.pred]));
    const s = run([here, '--store', f.data, f.kb]);
    report('training set as train keeps it (no training)', n, both, s);
    const st = JSON.parse(s.stdout) as { dialogues: number; bytes: number; words: number; heapMiB: number };
    process.stdout.write(`  ${st.dialogues} dialogues in ${(st.bytes / MIB).toFixed(0)} MiB of typed arrays (${(st.bytes / st.dialogues).toFixed(0)} bytes a dialogue), ${st.words} distinct words, JS heap ${st.heapMiB.toFixed(0)} MiB\n`);
    if (n === sizes[sizes.length - 1]) {
      const t = run([cliPath, 'airdialogue', 'train', '--data', f.data, '--kb', f.kb, '--max-dialogues', String(trainDialogues), '--epochs', '1', '--out', model]);
      report(`airdialogue train --max-dialogues ${trainDialogues} --epochs 1`, trainDialogues, 0, t);
      const epoch = /epoch 1: .*\(([\d.]+)s\)/.exec(t.stdout);
      const trained = Math.round(trainDialogues * 0.9);
      if (epoch) process.stdout.write(`  epoch of ${trained} dialogues (dim 24, hidden 48; dev: ${trainDialogues - trained}) in ${epoch[1]} s: ${((Number(epoch[1]) / trained) * 10000).toFixed(0)} s per 10,000 dialogues and epoch, ${((Number(epoch[1]) / trained) * n / 3600).toFixed(1)} h per epoch of all ${n}\n`);
      const evalN = Math.min(500, n);
      const e = run([cliPath, 'airdialogue', 'eval', '--model', model, '--data', f.data, '--kb', f.kb, '--max-dialogues', String(evalN), '--no-bleu']);
      report(`airdialogue eval --max-dialogues ${evalN} --no-bleu`, evalN, 0, e);
      process.stdout.write(`  ${((e.seconds / evalN) * 10000).toFixed(0)} s per 10,000 dialogues\n`);
      const bleuN = Math.min(100, n);
      const eb = run([cliPath, 'airdialogue', 'eval', '--model', model, '--data', f.data, '--kb', f.kb, '--max-dialogues', String(bleuN)]);
      report(`airdialogue eval --max-dialogues ${bleuN} (BLEU)`, bleuN, 0, eb);
      process.stdout.write(`  ${((eb.seconds / bleuN) * 10000).toFixed(0)} s per 10,000 dialogues\n`);
      const line = Math.max(1, n - 459);
      const c = run([cliPath, 'airdialogue', 'chat', '--model', model, '--data', f.data, '--kb', f.kb, '--line', String(line)], '/context\n');
      report(`airdialogue chat --line ${line}`, line, both, c);
      if (!c.stdout.includes(`line ${line})`)) throw new Error(`chat did not play line ${line}: ${c.stdout.slice(0, 200)}`);
    }
    if (process.env.AIR_FULL_KEEP !== '1') for (const x of Object.values(f)) rmSync(x, { force: true });
  }
} finally {
  if (process.env.AIR_FULL_KEEP !== '1' && !process.env.AIR_FULL_DIR) rmSync(dir, { recursive: true, force: true });
}
