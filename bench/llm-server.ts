/**
 * The local OpenAI-compatible test server (test/llm-server.ts) as a process, for the bench and for
 * trying `--agent-llm` by hand: `node dist/bench/llm-server.js [--429-every K]` prints its
 * base URL (for `--llm-url`) on stdout; on SIGTERM or SIGINT it prints its counts on stderr
 * (`{"requests", "answered", "rejected", "mismatches"}`) and exits.
 */
import { startLlmTestServer } from '../test/llm-server.js';

const at = process.argv.indexOf('--429-every');
const every = at > 0 ? Number(process.argv[at + 1]) : 0;
const server = await startLlmTestServer(every > 0 ? { faults: (n) => (n % every === 0 ? { status: 429, retryAfterMs: 2 } : undefined) } : {});
process.stdout.write(server.url + '\n');
const stop = async (): Promise<void> => {
  const { requests, answered, rejected, mismatches } = server.stats;
  process.stderr.write(JSON.stringify({ requests, answered, rejected: rejected.length, mismatches: mismatches.length }) + '\n');
  await server.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
