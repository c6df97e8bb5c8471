/** The DSTC6 byte scanner's module in src/testbeds/dstc6/score-scan.cts is the one test/dstc6-scanner-wasm.ts writes out. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCANNER_WASM } from '../src/testbeds/dstc6/score-scan.cjs';
import { scannerBytes } from './dstc6-scanner-wasm.js';

test('SCANNER_WASM is the module test/dstc6-scanner-wasm.ts makes', () => {
  const made = Buffer.from(scannerBytes()).toString('base64');
  assert.equal(SCANNER_WASM, made, `paste this as SCANNER_WASM in src/testbeds/dstc6/score-scan.cts: ${made}`);
});
