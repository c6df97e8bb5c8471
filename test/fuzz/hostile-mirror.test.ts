/**
 * `data fetch` against a hostile mirror (test/fuzz/mirror.ts), with a small catalogue whose files are
 * a few KB, so that every bomb here is a few MB: a file larger than the catalogue's size, a file
 * outside the release unpacking to megabytes, paths leading out of the folder, symbolic and hard
 * links, a file given twice, a truncated archive, a Content-Length above the bound, a stream
 * without end; then a few hundred random mutations of a good archive (tar.gz and zip, mutated
 * before and after compression). The property every time: the fetch either installs the release's
 * files byte for byte, or throws one typed line; the data folder then holds what it held before
 * (no staging folder, no archive, no part), nothing is written outside it, and the mirror's endless
 * stream is left after the catalogue's bound.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync as gunzip, gzipSync as gzip } from 'node:zlib';
import fc from 'fast-check';
import { DialogymError } from '../../src/core/errors.js';
import { archiveLimit, unpackedLimit, type Catalogue, type CatalogueDataset } from '../../src/datasets/catalogue.js';
import { fetchDataset } from '../../src/datasets/fetch.js';
import { cliPath } from '../shared-data.js';
import { applyByteOps, byteOp } from './mutate.js';
import { startMirror, tarGz, zipOf, type HostileMirror, type TarEntry } from './mirror.js';

const RUNS = Number(process.env.DIALOGYM_FUZZ_RUNS ?? 300);
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

// The release of this test: two files and an unchecked README.
const A = Buffer.from('1 hello, how can I help you today?\n'.repeat(60));
const C = Buffer.from('resto_1 R_cuisine italian\nresto_1 R_location rome\n'.repeat(40));
const README = Buffer.from('The tiny release.\n');

function dataset(name: string, format: 'tar.gz' | 'zip'): CatalogueDataset {
  return {
    name,
    title: 'a tiny release',
    folder: `${name}-set`,
    licence: 'none',
    home: 'http://publisher.invalid/',
    archive: { url: `http://publisher.invalid/${name}/${name}.${format}`, format },
    anchor: 'a.txt',
    files: { 'a.txt': { sha256: sha(A), bytes: A.length }, 'b/c.txt': { sha256: sha(C), bytes: C.length } },
    required: ['a.txt', 'b/c.txt'],
    unchecked: ['README'],
    uncheckedMaxBytes: 4096,
    refPrefix: name,
    refs: {},
    examples: [],
    inAll: false,
  };
}
const TGZ = dataset('tiny', 'tar.gz');
const ZIP = dataset('tinyzip', 'zip');
const CATALOGUE: Catalogue = [TGZ, ZIP];
const UNPACKED = unpackedLimit(TGZ) as number;
const ARCHIVE = (archiveLimit(TGZ) as { bytes: number }).bytes;

const good: TarEntry[] = [
  { path: 'tiny/', type: '5' },
  { path: 'tiny/a.txt', body: A },
  { path: 'tiny/b/c.txt', body: C },
  { path: 'tiny/README', body: README },
];
const goodZip = (): Promise<Buffer> => zipOf([{ name: 'tiny/a.txt', body: A }, { name: 'tiny/b/c.txt', body: C }, { name: 'tiny/README', body: README }]);

let work: string;
let root: string;
let mirror: HostileMirror;
let before0: Map<string, string>;

/** Every entry under `dir` (files with their SHA-256, links and folders marked), relative paths. */
function snapshot(dir: string, base = dir, out = new Map<string, string>()): Map<string, string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const rel = p.slice(base.length + 1);
    if (e.isSymbolicLink()) out.set(rel, 'symlink');
    else if (e.isDirectory()) snapshot(p, base, out.set(rel, 'dir'));
    else out.set(rel, `${lstatSync(p).nlink > 1 ? 'hardlink ' : ''}${sha(readFileSync(p))}`);
  }
  return out;
}

/** Serves `bytes` as the archive of `d` under the mirror path `/<key>`; returns the mirror URL. */
function serve(key: string, d: CatalogueDataset, answer: Parameters<HostileMirror['answers']['set']>[1]): string {
  mirror.answers.set(`/${key}${new URL(d.archive.url).pathname}`, answer);
  return `${mirror.base}/${key}`;
}

/** Fetches `d` from `mirrorUrl`: the error (one line, typed) or undefined when it installed. */
async function attempt(d: CatalogueDataset, mirrorUrl: string, opts: { refetch?: boolean } = {}): Promise<Error | undefined> {
  try {
    await fetchDataset(d.name, { root, catalogue: CATALOGUE, mirror: mirrorUrl, ...opts });
    return undefined;
  } catch (e) {
    assert.ok(e instanceof DialogymError, `untyped: ${String(e)}`);
    assert.ok(!e.message.includes('\n'), e.message);
    return e;
  }
}

/** The data folder holds exactly what it held before; nothing landed beside it. */
function assertUntouched(why: string): void {
  assert.deepEqual(snapshot(root), before0, why);
  assert.deepEqual(readdirSync(work).sort(), ['data'], `${why}: something was written beside the data folder`);
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'hostile-mirror-'));
  root = join(work, 'data');
  mirror = await startMirror();
  // A data folder holding a good copy of both and a file of the user's.
  mkdirSync(root);
  writeFileSync(join(root, 'notes.txt'), 'mine\n');
  assert.equal(await attempt(TGZ, serve('good', TGZ, { kind: 'bytes', bytes: tarGz(good) })), undefined);
  assert.equal(await attempt(ZIP, serve('good', ZIP, { kind: 'bytes', bytes: await goodZip() })), undefined);
  before0 = snapshot(root);
  assert.deepEqual([...before0.keys()].sort(), ['notes.txt', 'tiny-set', 'tiny-set/README', 'tiny-set/a.txt', 'tiny-set/b', 'tiny-set/b/c.txt', 'tinyzip-set', 'tinyzip-set/README', 'tinyzip-set/a.txt', 'tinyzip-set/b', 'tinyzip-set/b/c.txt']);
});

after(async () => {
  await mirror?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('hostile mirror: bombs are refused at the catalogue sizes, before their bytes are written', async () => {
  const big = UNPACKED * 4; // a few MB of zeros: a few KB compressed
  const cases: [string, TarEntry[], RegExp][] = [
    ['a catalogue file larger than its size', [{ path: 'tiny/a.txt', body: Buffer.alloc(big) }, ...good.slice(2)], new RegExp(`^tiny-set/a\\.txt: ${big.toLocaleString('en-US')} bytes in the archive from .*, more than the original's size \\(${A.length.toLocaleString('en-US')}\\): not the release, refused before unpacking it; removed the download`)],
    ['a file outside the release of megabytes', [...good, { path: 'tiny/extra.bin', body: Buffer.alloc(big) }], new RegExp(`^tiny\\.tar\\.gz: unpacks to more than the ${UNPACKED.toLocaleString('en-US')} bytes of the tiny release's files: not the release, refused; removed the download`)],
    ['an unchecked file over its bound', [...good.slice(0, 3), { path: 'tiny/README', body: Buffer.alloc(8192) }], /^tiny-set\/README: 8,192 bytes .* more than the catalogue allows this file \(4,096\)/],
    ['many files outside the release', [...good, ...Array.from({ length: 8 }, (_, i) => ({ path: `tiny/x${i}`, body: Buffer.alloc(1 << 19) }))], new RegExp(`^tiny\\.tar\\.gz: unpacks to more than the ${UNPACKED.toLocaleString('en-US')} bytes of the tiny release's files: not the release, refused; removed the download`)],
  ];
  for (const [why, entries, pattern] of cases) {
    const e = await attempt(TGZ, serve(`bomb-${why.replace(/\W+/g, '-')}`, TGZ, { kind: 'bytes', bytes: tarGz(entries) }));
    assert.match(e?.message ?? 'installed', pattern, why);
    assertUntouched(why);
  }
  const zipBomb = await zipOf([{ name: 'tiny/a.txt', body: A }, { name: 'tiny/b/c.txt', body: C }, { name: 'tiny/zeros', body: Buffer.alloc(big) }]);
  const e = await attempt(ZIP, serve('zip-bomb', ZIP, { kind: 'bytes', bytes: zipBomb }));
  assert.match(e?.message ?? 'installed', /^tinyzip\.zip: unpacks to more than the [\d,]+ bytes of the tinyzip release's files: not the release, refused; removed the download/);
  assertUntouched('zip bomb');
});

test('hostile mirror: paths out of the folder, links and a file given twice refuse the archive; nothing is written outside the data folder', async () => {
  const tarCases: [string, TarEntry[], RegExp][] = [
    ['..', [...good, { path: '../../evil.txt', body: Buffer.from('x') }], /^tiny\.tar\.gz: holds an entry outside its folder \("\.\.\/\.\.\/evil\.txt"\): not the release, refused; removed the download/],
    ['.. inside', [...good, { path: 'tiny/../../evil.txt', body: Buffer.from('x') }], /holds an entry outside its folder/],
    ['absolute', [...good, { path: `${work}/evil.txt`, body: Buffer.from('x') }], /holds an entry outside its folder/],
    ['a folder given as ..', [{ path: '../', type: '5' }, ...good], /holds an entry outside its folder/],
    ['a symbolic link for a catalogue file', [{ path: 'tiny/a.txt', type: '2', link: '/etc/passwd' }, ...good.slice(2)], /^tiny-set\/a\.txt: a symbolic link in the archive from .*, not a file: not the release, refused; removed the download/],
    ['a hard link for a catalogue file', [...good.slice(0, 2), { path: 'tiny/b/c.txt', type: '1', link: '../../../evil.txt' }, good[3] as TarEntry], /^tiny-set\/b\/c\.txt: a hard link in the archive from .*, not a file: not the release, refused; removed the download/],
    ['a file under a file', [...good, { path: 'tiny/a.txt/README', body: Buffer.from('x') }], /^tiny\.tar\.gz: holds tiny\/a\.txt\/README where it also has a file and a folder of that name: not the release, refused; removed the download/],
    ['a file given twice', [...good, { path: 'tiny/a.txt', body: Buffer.from('overwritten') }], /^tiny\.tar\.gz: holds tiny\/a\.txt twice: not the release, refused; removed the download/],
  ];
  for (const [why, entries, pattern] of tarCases) {
    const e = await attempt(TGZ, serve(`path-${why.replace(/\W+/g, '-')}`, TGZ, { kind: 'bytes', bytes: tarGz(entries) }));
    assert.match(e?.message ?? 'installed', pattern, why);
    assertUntouched(why);
  }
  // A symbolic link to a folder outside, then a file through it: the link is never made, the file lands inside.
  const through = await attempt(TGZ, serve('link-through', TGZ, { kind: 'bytes', bytes: tarGz([{ path: 'tiny/b', type: '2', link: work }, ...good.slice(1)]) }));
  assert.equal(through, undefined);
  assertUntouched('a link to a folder outside, then a file through it');
  const zips: [string, Buffer, RegExp][] = [
    ['zip ..', await zipOf([{ name: 'tiny/a.txt', body: A }, { name: 'tiny/b/c.txt', body: C }, { name: 'xx/evil.txt', body: Buffer.from('x') }], { 'xx/evil.txt': '../evil.txt' }), /^tinyzip\.zip: (holds an entry outside its folder|not a valid zip archive \(invalid relative path)/],
    ['zip symlink', await zipOf([{ name: 'tiny/a.txt', body: Buffer.from('/etc/passwd'), mode: 0o120777 }, { name: 'tiny/b/c.txt', body: C }]), /^tinyzip-set\/a\.txt: a symbolic link in the archive from .*, not a file: not the release, refused; removed the download/],
  ];
  for (const [why, bytes, pattern] of zips) {
    const e = await attempt(ZIP, serve(why.replace(/\W+/g, '-'), ZIP, { kind: 'bytes', bytes }));
    assert.match(e?.message ?? 'installed', pattern, why);
    assertUntouched(why);
  }
});

test('hostile mirror: a truncated archive, a Content-Length above the bound and an endless stream are refused; the stream is left at the bound', async () => {
  const whole = tarGz(good);
  const truncated = await attempt(TGZ, serve('truncated', TGZ, { kind: 'bytes', bytes: whole.subarray(0, whole.length >> 1) }));
  assert.match(truncated?.message ?? 'installed', /^tiny\.tar\.gz: not a valid tar\.gz archive \(.*\); removed the download, run again to fetch it anew$/);
  assertUntouched('truncated');

  const announced = await attempt(TGZ, serve('announced', TGZ, { kind: 'endless', length: ARCHIVE + 1, cap: ARCHIVE + 1 }));
  assert.match(announced?.message ?? 'installed', new RegExp(`announces ${ARCHIVE + 1} bytes, more than the ${ARCHIVE} the catalogue allows \\(not the release\\); refused before the body, removed the download$`));
  assertUntouched('Content-Length above the bound');

  const cap = 64 * ARCHIVE; // the mirror gives up after this: far past where the client must stop
  const url = serve('endless', TGZ, { kind: 'endless', cap });
  const endless = await attempt(TGZ, url);
  assert.match(endless?.message ?? 'installed', new RegExp(`sent more than the ${ARCHIVE} bytes the catalogue allows \\(not the release\\); stopped at byte ${ARCHIVE + 1}, removed the download$`));
  assertUntouched('endless stream');
  const sent = mirror.sent.get('/endless/tiny/tiny.tar.gz') ?? 0;
  assert.ok(sent < cap / 2, `the client read on: the mirror sent ${sent} bytes`);
});

test('hostile mirror: a refused archive left in .downloads is removed and the error says so; with refetch it is downloaded anew', async () => {
  const downloads = join(root, '.downloads');
  const bomb = tarGz([{ path: 'tiny/a.txt', body: Buffer.alloc(UNPACKED) }, ...good.slice(2)]);
  for (const refetch of [false, true]) {
    mkdirSync(downloads, { recursive: true });
    writeFileSync(join(downloads, 'tiny.tar.gz'), bomb);
    const url = serve('fresh', TGZ, { kind: 'bytes', bytes: tarGz(good) });
    const notes: string[] = [];
    let error: Error | undefined;
    try {
      await fetchDataset('tiny', { root, catalogue: CATALOGUE, mirror: url, refetch, onNote: (l) => notes.push(l) });
    } catch (e) {
      error = e as Error;
    }
    if (!refetch) {
      assert.match(error?.message ?? 'installed', /^tiny-set\/a\.txt: .* refused before unpacking it; removed the archive found in \.downloads, run again to download it anew$/);
      assert.equal(mirror.sent.get('/fresh/tiny/tiny.tar.gz'), undefined, 'the mirror was not asked');
    } else {
      assert.equal(error, undefined);
      assert.match(notes[1] ?? '', /^tiny: the archive already in .*\.downloads was refused \(tiny-set\/a\.txt: .*\); removed it, downloading it anew$/);
      assert.equal(mirror.sent.get('/fresh/tiny/tiny.tar.gz'), tarGz(good).length);
    }
    assertUntouched(refetch ? 'refetched' : 'refused');
  }
  // The CLI: --force is what re-fetches a refused archive, and says so.
  mkdirSync(downloads, { recursive: true });
  writeFileSync(join(downloads, 'tiny.tar.gz'), bomb);
  writeFileSync(join(work, 'catalogue.json'), JSON.stringify(CATALOGUE));
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cliPath, 'data', 'fetch', 'tiny', '--force', '--dir', root, '--mirror', `${mirror.base}/fresh`, '--catalogue', join(work, 'catalogue.json')], { env: { ...process.env, DIALOGYM_MIRROR: '' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  rmSync(join(work, 'catalogue.json'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /note: tiny: the archive already in .* was refused \(tiny-set\/a\.txt: .*\); removed it, downloading it anew/);
  assertUntouched('--force');
});

test(`hostile mirror fuzz: ${RUNS} mutated archives (tar.gz mutated before and after compression, zip): the release byte for byte, or one typed line and the data folder as it was`, async () => {
  const tar = Buffer.from(gunzip(tarGz(good)));
  const zip = await goodZip();
  const kinds = ['tar', 'tgz', 'zip'] as const;
  let installed = 0;
  let refused = 0;
  const samples = fc.sample(fc.tuple(fc.constantFrom(...kinds), fc.array(byteOp, { minLength: 1, maxLength: 4 })), { numRuns: RUNS, seed: 41 });
  for (const [i, [kind, ops]] of samples.entries()) {
    const d = kind === 'zip' ? ZIP : TGZ;
    const bytes = kind === 'tar' ? gzip(applyByteOps(tar, ops)) : applyByteOps(kind === 'tgz' ? tarGz(good) : zip, ops);
    const e = await attempt(d, serve(`fuzz-${i}`, d, { kind: 'bytes', bytes }));
    if (e === undefined) {
      installed++;
      const got = snapshot(join(root, d.folder));
      assert.equal(got.get('a.txt'), sha(A), `case ${i}`);
      assert.equal(got.get('b/c.txt'), sha(C), `case ${i}`);
      assert.deepEqual([...got.keys()].filter((k) => !['a.txt', 'b', 'b/c.txt', 'README'].includes(k)), [], `case ${i}: extra files`);
      // A README changed by the mutation is installed as found (it has no checksum): put the original back.
      writeFileSync(join(root, d.folder, 'README'), README);
    } else refused++;
    assertUntouched(`case ${i} (${kind} ${JSON.stringify(ops)}): ${e?.message ?? 'installed'}`);
  }
  assert.ok(refused > RUNS / 2 && installed > 0, `refused ${refused}, installed ${installed}`);
});
