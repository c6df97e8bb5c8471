/**
 * `data fetch` against a hostile mirror at real sizes, by hand (issue 41, case 3): the real
 * catalogue, a 2 GiB bomb (a .tar.gz for babi, a .zip for dstc6) and a 1 GiB stream without
 * Content-Length (babi, whose bound is what its files unpack to, and airdialogue, whose archive
 * size is known). Each run is `dialogym data fetch` in a child under /usr/bin/time -v: its exit
 * code, the error line, wall time, peak RSS, what the mirror sent, and whether the data folder
 * holds anything but what it held before.
 *
 *   npx tsc -p . && node dist/bench/hostile-fetch.js
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { archiveLimit, CATALOGUE } from '../src/datasets/catalogue.js';
import { startMirror, writeTarGz } from '../test/fuzz/mirror.js';

const GiB = 2 ** 30;
const cli = join(import.meta.dirname, '..', 'src', 'cli', 'index.js');

function listing(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return [p.slice(base.length + 1), ...(e.isDirectory() ? listing(p, base) : [])];
  });
}

async function measure(label: string, args: string[], root: string, sentOf: () => number): Promise<void> {
  const before = listing(root).join('\n');
  const t0 = performance.now();
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn('/usr/bin/time', ['-v', process.execPath, cli, ...args], { env: { ...process.env, DIALOGYM_MIRROR: '' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
  const wall = (performance.now() - t0) / 1000;
  const rss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024;
  const error = r.stderr.split('\n').find((l) => l.startsWith('error: ')) ?? '(no error line)';
  const after = listing(root).join('\n');
  console.log(`${label}\n  exit ${r.code}, ${wall.toFixed(1)} s wall, peak RSS ${rss.toFixed(0)} MB, mirror sent ${(sentOf() / 1e6).toFixed(1)} MB, data folder ${after === before ? 'as it was' : `CHANGED:\n${after}`}\n  ${error}`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hostile-fetch-'));
  const root = join(work, 'data');
  mkdirSync(root);
  writeFileSync(join(root, 'notes.txt'), 'mine\n');
  const mirror = await startMirror();
  try {
    const babi = CATALOGUE.find((d) => d.name === 'babi')!;
    const dstc6 = CATALOGUE.find((d) => d.name === 'dstc6')!;
    const air = CATALOGUE.find((d) => d.name === 'airdialogue')!;
    const pathOf = (url: string): string => new URL(url).pathname;

    // 1. babi: a .tar.gz holding a 2 GiB file where the release's kb file is (and one outside the release).
    for (const [what, path] of [['the kb file', 'dialog-bAbI-tasks/dialog-babi-kb-all.txt'], ['a file outside the release', 'dialog-bAbI-tasks/zeros.bin']] as const) {
      const bomb = join(work, 'bomb.tar.gz');
      const size = await writeTarGz([{ path, body: { zeros: 2 * GiB } }], bomb, 9);
      mirror.answers.set(`/bomb${pathOf(babi.archive.url)}`, { kind: 'file', file: bomb });
      mirror.sent.clear();
      await measure(`babi: ${(size / 1e6).toFixed(1)} MB tar.gz holding 2 GiB as ${what}`, ['data', 'fetch', 'babi', '--dir', root, '--mirror', `${mirror.base}/bomb`], root, () => [...mirror.sent.values()].reduce((a, b) => a + b, 0));
    }

    // 2. dstc6: a .zip holding a 2 GiB file.
    const zipFile = join(work, 'bomb.zip');
    const zip = new yazl.ZipFile();
    const zeros = Buffer.alloc(1 << 20);
    zip.addReadStream(Readable.from((function* () { for (let i = 0; i < 2048; i++) yield zeros; })()), 'dataset-E2E-goal-oriented-test-v1.0/extendedkb1.txt', { compressionLevel: 9 } as yazl.ReadStreamOptions);
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(zipFile));
    mirror.answers.set(`/bomb${pathOf(dstc6.archive.url)}`, { kind: 'file', file: zipFile });
    mirror.sent.clear();
    await measure(`dstc6: ${(statSync(zipFile).size / 1e6).toFixed(1)} MB zip holding 2 GiB as extendedkb1.txt`, ['data', 'fetch', 'dstc6', '--dir', root, '--mirror', `${mirror.base}/bomb`], root, () => [...mirror.sent.values()].reduce((a, b) => a + b, 0));
    rmSync(join(work, 'bomb.tar.gz'), { force: true });
    rmSync(zipFile, { force: true });

    // 3. An endless stream (1 GiB, no Content-Length) where the archive should be.
    for (const d of [babi, air]) {
      const path = `/endless${pathOf(d.archive.url)}`;
      mirror.answers.set(path, { kind: 'endless', cap: GiB });
      mirror.sent.clear();
      const limit = archiveLimit(d)!;
      await measure(`${d.name}: 1 GiB without Content-Length (catalogue bound ${limit.bytes.toLocaleString('en-US')} bytes${limit.exact ? ', the archive size' : ''})`, ['data', 'fetch', d.name, '--dir', root, '--mirror', `${mirror.base}/endless`], root, () => mirror.sent.get(path) ?? 0);
    }
  } finally {
    await mirror.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
