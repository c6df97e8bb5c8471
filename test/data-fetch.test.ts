/**
 * `dialogym data fetch` against a local HTTP server (no network): the server serves archives built
 * here from the originals in ../shared/data, in the releases' layouts (ParlAI's dialog_babi.tar.gz,
 * the DSTC6 organisers' test zip, a small AirDialogue tar.gz with the real layout) at the URL paths
 * of the real ones, reached with --mirror. Checks: the installed files are the originals byte for
 * byte; a download cut half-way resumes with a Range request; a corrupted byte is refused in one
 * line naming the file, leaving the installed tree as it was; no network says which URL failed and
 * where to put the archive by hand, and an archive put there is installed; the benchmark and eval
 * run on the fetched copy through dataset references.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as tar from 'tar';
import yazl from 'yazl';
import { CATALOGUE } from '../src/datasets/catalogue.js';
import { airDir, babiDir, cliPath, dstc6Dir, sharedData, skipUnless } from './shared-data.js';

const skip = skipUnless(babiDir) || skipUnless(dstc6Dir) || skipUnless(airDir);
const TEST_SET = 'dataset-E2E-goal-oriented-test-v1.0';
const BABI_PATH = '/downloads/dialog_babi/dialog_babi.tar.gz';
const DSTC6_PATH = `/perezjln/dstc6-goal-oriented-end-to-end/raw/master/data/${TEST_SET}.zip`;
const AIR_PATH = '/airdialogue/airdialogue_data.tar.gz';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a child process, asynchronously (the server answers from this process). */
function cli(args: readonly string[], env: NodeJS.ProcessEnv, shell?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = shell !== undefined
      ? spawn('sh', ['-c', shell.replace(/^dialogym /, `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} `)], { env: { ...process.env, DIALOGYM_MIRROR: '', ...env } })
      : spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, DIALOGYM_MIRROR: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function oneLine(r: Run, pattern: RegExp): void {
  assert.notEqual(r.code, 0, 'exit code must be non-zero');
  const lines = r.stderr.trimEnd().split('\n').filter((l) => !l.startsWith('note: ') && !/ \(KiB\): \d+\/\d+ /.test(l));
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0] as string, pattern);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

let work: string;
let server: Server;
let base: string;
/** Archive served per URL path; paths whose next response is cut half-way; every request's path and headers. */
const served = new Map<string, string>();
const cutNext = new Set<string>();
const requests: { path: string; headers: IncomingHttpHeaders }[] = [];

function zipFolder(from: string, prefix: string, out: string): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const f of filesUnder(from).sort()) zip.addFile(f, `${prefix}/${relative(from, f)}`);
  zip.end();
  return new Promise((resolve, reject) => zip.outputStream.pipe(createWriteStream(out)).on('close', resolve).on('error', reject));
}

before(async () => {
  if (skip) return;
  work = mkdtempSync(join(tmpdir(), 'data-fetch-'));
  // bAbI: ParlAI's archive holds dialog-bAbI-tasks/<file>; PROVENANCE.md (not part of the release) is left out by fetch.
  const babiTgz = join(work, 'dialog_babi.tar.gz');
  await tar.c({ gzip: { level: 1 }, file: babiTgz, cwd: sharedData, portable: true }, ['dialog-bAbI-tasks']);
  // The same with one byte changed in one file.
  const bad = join(work, 'bad');
  mkdirSync(join(bad, 'dialog-bAbI-tasks'), { recursive: true });
  for (const f of readdirSync(babiDir)) copyFileSync(join(babiDir, f), join(bad, 'dialog-bAbI-tasks', f));
  const victim = join(bad, 'dialog-bAbI-tasks', 'dialog-babi-task3-options-dev.txt');
  const bytes = readFileSync(victim);
  bytes[1000] = bytes[1000] === 0x61 ? 0x62 : 0x61;
  writeFileSync(victim, bytes);
  const badTgz = join(work, 'bad.tar.gz');
  await tar.c({ gzip: { level: 1 }, file: badTgz, cwd: bad, portable: true }, ['dialog-bAbI-tasks']);
  // DSTC6: the organisers' test zip.
  const dstc6Zip = join(work, `${TEST_SET}.zip`);
  await zipFolder(join(dstc6Dir, TEST_SET), TEST_SET, dstc6Zip);
  // AirDialogue: the real layout, small files.
  const air = join(work, 'air');
  mkdirSync(join(air, 'airdialogue_data', 'airdialogue'), { recursive: true });
  mkdirSync(join(air, 'airdialogue_data', 'resources', 'meta_context'), { recursive: true });
  for (const f of ['train_data.json', 'train_kb.json', 'dev_data.json', 'dev_kb.json']) {
    const lines = readFileSync(join(airDir, f), 'utf8').split('\n').slice(0, 5);
    writeFileSync(join(air, 'airdialogue_data', 'airdialogue', f), lines.join('\n') + '\n');
  }
  writeFileSync(join(air, 'airdialogue_data', 'resources', 'meta_context', 'first_names.txt'), 'Ada\nAlan\n');
  writeFileSync(join(air, 'airdialogue_data', 'readme.txt'), 'AirDialogue data\n');
  const airTgz = join(work, 'airdialogue_data.tar.gz');
  await tar.c({ gzip: true, file: airTgz, cwd: air, portable: true }, ['airdialogue_data']);
  const airBad = join(work, 'air-bad.tar.gz');
  const airBytes = readFileSync(airTgz);
  const mid = airBytes.length >> 1;
  airBytes[mid] = (airBytes[mid] as number) ^ 0xff;
  writeFileSync(airBad, airBytes);
  // The catalogue of this mirror: dialogym's, with the archive checksum of this AirDialogue archive.
  writeFileSync(join(work, 'catalogue.json'), JSON.stringify(CATALOGUE.map((d) => (d.name === 'airdialogue' ? { ...d, archive: { ...d.archive, sha256: [sha256(airTgz)], bytes: airBytes.length } } : d))));
  served.set(BABI_PATH, babiTgz);
  served.set(`/raw${DSTC6_PATH}`, dstc6Zip);
  served.set(AIR_PATH, airTgz);
  served.set(`/corrupt${BABI_PATH}`, badTgz);
  served.set(`/corrupt${AIR_PATH}`, airBad);
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    requests.push({ path, headers: req.headers });
    // GitHub answers a /raw/ link with a redirect to its raw host: here to /raw/<path>.
    if (path === DSTC6_PATH) {
      res.writeHead(302, { location: `/raw${path}` }).end();
      return;
    }
    const file = served.get(path);
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    const size = statSync(file).size;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start >= size) {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    res.writeHead(range ? 206 : 200, { 'content-length': size - start, ...(range ? { 'content-range': `bytes ${start}-${size - 1}/${size}` } : {}) });
    if (cutNext.delete(path)) {
      // Half of the file, then the connection drops.
      const half = readFileSync(file).subarray(start, start + ((size - start) >> 1));
      res.write(half, () => res.socket?.destroy());
      return;
    }
    createReadStream(file, { start }).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Every file of `original` (but PROVENANCE.md) is in `fetched` with the same bytes, and nothing else is. */
function assertSameFiles(original: string, fetched: string): number {
  const want = filesUnder(original).filter((f) => !f.endsWith('PROVENANCE.md')).map((f) => relative(original, f)).sort();
  const got = filesUnder(fetched).map((f) => relative(fetched, f)).sort();
  assert.deepEqual(got, want);
  for (const f of want) assert.ok(readFileSync(join(original, f)).equals(readFileSync(join(fetched, f))), f);
  return want.length;
}

test('data fetch all --mirror: a cut download resumes with Range, the files are the originals, the benchmark runs on them', { skip }, async () => {
  const root = join(work, 'root');
  const env = { DIALOGYM_DATA: root };
  cutNext.add(BABI_PATH);
  const cut = await cli(['data', 'fetch', 'babi', '--mirror', base], env);
  oneLine(cut, /^error: download of http:\/\/127\.0\.0\.1:\d+\/downloads\/dialog_babi\/dialog_babi\.tar\.gz cut at \d+ bytes .*; run again to resume/);
  const part = join(root, '.downloads', 'dialog_babi.tar.gz.part');
  const have = statSync(part).size;
  assert.ok(have > 0);
  assert.ok(!existsSync(join(root, 'dialog-bAbI-tasks')), 'nothing installed from a cut download');

  requests.length = 0;
  const r = await cli(['data', 'fetch', 'all', '--mirror', base, '--catalogue', join(work, 'catalogue.json')], env);
  assert.equal(r.code, 0, r.stderr);
  const babiRequest = requests.find((q) => q.path === BABI_PATH);
  assert.equal(babiRequest?.headers.range, `bytes=${have}-`, 'the second run asks for the rest');
  assert.ok(requests.some((q) => q.path === `/raw${DSTC6_PATH}`), 'the redirect was followed');
  assert.match(r.stderr, /note: babi: resuming the download of http:\/\/127\.0\.0\.1:\d+\/downloads\/dialog_babi\/dialog_babi\.tar\.gz at \d+ bytes/);
  assert.match(r.stderr, /note: babi: left out 1 file of the archive that is not part of the release: PROVENANCE\.md/);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3, r.stdout);
  assert.match(lines[0] as string, new RegExp(`^babi: 29 files, 34\\.5 MB in ${root}/dialog-bAbI-tasks \\(from ${base}${BABI_PATH}, resumed at ${have} bytes; checked: every file's SHA-256\\)$`));
  assert.match(lines[1] as string, /^dstc6: 42 files, 47\.3 MB in .*dstc6-track1\/dataset-E2E-goal-oriented-test-v1\.0 .*checked: every file's SHA-256\)$/);
  assert.match(lines[2] as string, /^airdialogue: 6 files, .* in .*\/airdialogue \(.*checked: the archive's SHA-256\)$/);

  // The files: the originals, byte for byte (count and bytes); AirDialogue in the flat layout of the release folder.
  assert.equal(assertSameFiles(babiDir, join(root, 'dialog-bAbI-tasks')), 29);
  assert.equal(assertSameFiles(join(dstc6Dir, TEST_SET), join(root, 'dstc6-track1', TEST_SET)), 42);
  assert.deepEqual(filesUnder(join(root, 'airdialogue')).map((f) => relative(join(root, 'airdialogue'), f)).sort(), [
    'dev_data.json', 'dev_kb.json', 'readme.txt', 'resources/meta_context/first_names.txt', 'train_data.json', 'train_kb.json',
  ]);
  for (const f of ['train_data.json', 'dev_kb.json']) assert.ok(readFileSync(join(root, 'airdialogue', f)).equals(readFileSync(join(work, 'air', 'airdialogue_data', 'airdialogue', f))), f);
  // No staging folder, part or archive is left (nor the emptied downloads folder).
  assert.deepEqual(readdirSync(root).sort(), ['airdialogue', 'dialog-bAbI-tasks', 'dstc6-track1']);

  const list = await cli(['data', 'list', '--json', '--verify'], env);
  assert.equal(list.code, 0, list.stderr);
  const status = JSON.parse(list.stdout) as { root: string; datasets: { name: string; present: boolean; corrupt: string[] }[] };
  assert.equal(status.root, root);
  assert.deepEqual(status.datasets.map((d) => `${d.name} ${d.present} ${d.corrupt.length}`), ['babi true 0', 'dstc6 true 0', 'dstc6-train false 0', 'airdialogue true 0']);

  // The benchmark and eval find the fetched copy by reference.
  const out = join(work, 'results');
  const bench = await cli(['benchmark', '--data', 'babi', '--quick', '--tasks', '1', '--models', 'tfidf', '--dialogs', '20', '--workers', '1', '--out', out], env);
  assert.equal(bench.code, 0, bench.stderr);
  assert.match(bench.stderr, new RegExp(`data: original files in ${root}/dialog-bAbI-tasks \\(first 20 trn`));
  const rows = (JSON.parse(readFileSync(join(out, 'benchmark.json'), 'utf8')) as { rows: { test: string; perResponse: number }[] }).rows;
  assert.deepEqual(rows.map((x) => x.test), ['T1', 'T1-OOV']);
  const ev = await cli(['eval', '--model', 'rules', '--data', 'babi:task1-tst-oov', '--json'], env);
  assert.equal(ev.code, 0, ev.stderr);
  assert.deepEqual(JSON.parse(ev.stdout), { perResponse: 1, perDialog: 1, turns: 6020, dialogs: 1000 });
  // The answers scored against themselves, found in the folder dstc6:tst2 by name.
  const answers = join(root, 'dstc6-track1', TEST_SET, 'tst2', 'dialog-task4INFOS-kb2_atmosphere-distr0.5-tst1000.answers.json');
  const score = await cli(['dstc6', 'score', '--result', answers, '--answers', 'dstc6:tst2', '--json'], env);
  assert.equal(score.code, 0, score.stderr);
  assert.deepEqual(JSON.parse(score.stdout), { p1: 1, p2: 1, p5: 1, mrr: 1, dialogs: 1000, missing: 0 });

  // Fetching a dataset the folder holds complete downloads nothing and says so (exit 0); --force fetches it again.
  requests.length = 0;
  const again = await cli(['data', 'fetch', 'babi', '--mirror', base], env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, `babi: already present, 29 files, 34.5 MB in ${root}/dialog-bAbI-tasks; nothing fetched (\`dialogym data list --verify\` checks every file; --force fetches it again)\n`);
  const air = await cli(['data', 'fetch', 'airdialogue', '--mirror', base, '--catalogue', join(work, 'catalogue.json')], env);
  assert.equal(air.code, 0, air.stderr);
  assert.match(air.stdout, /^airdialogue: already present, 6 files, .* nothing fetched \(its files have no published checksums, so a copy cannot be told from the release; --force fetches it again\)\n$/);
  assert.deepEqual(requests, []);

  // A corrupted byte: refused in one line naming the file; the installed copy stays as it was, nothing is left behind.
  const bad = await cli(['data', 'fetch', 'babi', '--force', '--mirror', `${base}/corrupt`], env);
  oneLine(bad, /^error: dialog-bAbI-tasks\/dialog-babi-task3-options-dev\.txt: SHA-256 [0-9a-f]{16}… is not the original's \(f2b28ff18f3aa066…\): the copy from http:\/\/127\.0\.0\.1:\d+\/corrupt\/downloads\/dialog_babi\/dialog_babi\.tar\.gz is corrupt or not the release; removed the download, run again to fetch it anew$/);
  assert.equal(assertSameFiles(babiDir, join(root, 'dialog-bAbI-tasks')), 29);
  assert.deepEqual(readdirSync(root).sort(), ['airdialogue', 'dialog-bAbI-tasks', 'dstc6-track1']);
  const badAir = await cli(['data', 'fetch', 'airdialogue', '--force', '--mirror', `${base}/corrupt`, '--catalogue', join(work, 'catalogue.json')], env);
  oneLine(badAir, /^error: airdialogue_data\.tar\.gz: SHA-256 [0-9a-f]{16}… is not the original's \([0-9a-f]{16}…\): the copy from .*\/corrupt\/airdialogue\/airdialogue_data\.tar\.gz is corrupt/);
  const badList = await cli(['data', 'list'], env);
  assert.match(badList.stdout, /^airdialogue  present: 6 files/m);
});

test('data fetch without network: one line naming the URL and where to put the archive by hand; an archive put there is installed', { skip }, async () => {
  const root = join(work, "off line's");
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const r = await cli(['data', 'fetch', 'dstc6', '--dir', root, '--mirror', `http://127.0.0.1:${port}`], {});
  oneLine(r, new RegExp(`^error: cannot download http://127\\.0\\.0\\.1:${port}${DSTC6_PATH.replace(/\./g, '\\.')} \\(.*ECONNREFUSED.*\\); to fetch by hand, put ${TEST_SET}\\.zip from https://github\\.com/perezjln/dstc6-goal-oriented-end-to-end/raw/master/data/${TEST_SET}\\.zip in ${root}/\\.downloads and run \`dialogym data fetch dstc6 --dir '${work}/off line'\\\\''s'\` again \\(docs/data\\.md\\)$`));
  // The advice, followed exactly as printed.
  const command = /run `(dialogym data fetch [^`]+)` again/.exec(r.stderr)?.[1] as string;
  copyFileSync(served.get(`/raw${DSTC6_PATH}`) as string, join(root, '.downloads', `${TEST_SET}.zip`));
  const byHand = await cli([], {}, command); // through sh, as a user pastes it
  assert.equal(byHand.code, 0, byHand.stderr);
  assert.match(byHand.stderr, /note: dstc6: using the archive already downloaded/);
  assert.equal(assertSameFiles(join(dstc6Dir, TEST_SET), join(root, 'dstc6-track1', TEST_SET)), 42);
  // data list --dir says what to run for that folder, and that command fetches there.
  const list = await cli(['data', 'list', '--dir', root], {});
  assert.match(list.stdout, new RegExp(`^babi +not fetched: run \`dialogym data fetch babi --dir '${work}/off line'\\\\''s'\`$`, 'm'));
  const missing = await cli(['eval', '--model', 'rules', '--data', 'babi:task1-tst'], { DIALOGYM_DATA: root });
  oneLine(missing, new RegExp(`^error: --data babi:task1-tst: bAbI dialog tasks 1-6 not found in ${root}/dialog-bAbI-tasks \\(run \`dialogym data fetch babi\`\\)$`));
});
