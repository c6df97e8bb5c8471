/**
 * Layering rules (ARCHITECTURE.md), checked by `npm test` (`npm run lint:deps`):
 * the folders of src/ in one strict order (LEVELS below: a folder imports only folders of lower
 * levels); generic layers import no testbed, server or CLI; testbeds import each other only where one
 * extends another (dstc6 → restaurant); the list of testbeds (src/testbeds/index.ts) is imported
 * only by the root API, the CLI and the servers, which reach a testbed only through it and the
 * descriptors; nothing imports the CLI; no import cycles.
 *
 * A testbed is a folder `src/testbeds/<name>/` (its descriptor: `<name>/testbed.ts`); the rules
 * name no testbed but the one extension, so adding a testbed needs no line here.
 */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The folder order of src/, bottom → top. A folder (or the one file named) imports only what sits
 * on a lower level: never its own level's other folders, never a higher level. Nested entries
 * (`llm/client` in `llm`) are their own node; `testbeds/*` is every testbed folder (how testbeds
 * import one another: the testbed rules below). `testbeds/testbed.ts` (the descriptor type every
 * testbed implements) and `testbeds` (the rest of that folder: the list of testbeds, index.ts)
 * are the folder's two files on either side of the testbeds (ARCHITECTURE.md, "Folder order").
 * Every folder of src/ must be on a level: a new one fails here until it is placed.
 */
const LEVELS = [
  ['core'],
  ['report', 'nn', 'formats', 'metrics', 'datasets', 'llm/client'],
  ['env', 'train'],
  ['rankers'],
  ['agents'],
  ['llm'],
  ['evaluation'],
  ['study', 'runs'],
  ['testbeds/testbed.ts'],
  ['testbeds/*'],
  ['testbeds'],
  ['serve'],
  ['cli', 'index.ts'],
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const entries = LEVELS.flat();
/** The paths of one entry, as a regular expression: its folder (or file) less the entries nested in it. */
function pattern(entry) {
  if (entry.endsWith('/*')) return `^src/${escape(entry.slice(0, -2))}/[^/]+/`;
  if (/\.[a-z]+$/.test(entry)) return `^src/${escape(entry)}$`; // a file
  const nested = entries
    .filter((e) => e.startsWith(`${entry}/`))
    .map((e) => (e.endsWith('/*') ? '[^/]+/' : /\.[a-z]+$/.test(e) ? `${escape(e.slice(entry.length + 1))}$` : `${escape(e.slice(entry.length + 1))}/`));
  return `^src/${escape(entry)}/${nested.length > 0 ? `(?!${nested.join('|')})` : ''}`;
}
const unplaced = readdirSync(join(__dirname, 'src'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !entries.includes(d.name))
  .map((d) => `src/${d.name}/`);
if (unplaced.length > 0) throw new Error(`.dependency-cruiser.cjs: ${unplaced.join(', ')} on no level of LEVELS: add it to the level it belongs to`);
/** One rule per entry: it imports nothing of its own level (but itself) or above. */
const folderOrder = LEVELS.flatMap((level, i) =>
  level.flatMap((entry) => {
    const above = [...LEVELS.slice(i + 1).flat(), ...level.filter((e) => e !== entry && !entry.endsWith('/*'))];
    if (above.length === 0) return [];
    return {
      name: `folder-order: ${entry}`,
      severity: 'error',
      comment: `${entry} (level ${i} of LEVELS) imports only lower levels, not ${above.join(', ')}.`,
      from: { path: pattern(entry), pathNot: '\\.test\\.ts$' },
      to: { path: above.map(pattern).join('|') },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Import cycles make modules impossible to load or test alone.',
      from: {},
      to: { circular: true },
    },
    ...folderOrder,
    {
      name: 'generic-layers-import-no-testbed',
      severity: 'error',
      comment: 'core, nn, formats, metrics, rankers, train, report, datasets and llm/client are generic: they never import env, testbeds, serve, cli, the agent harness or the LLM players.',
      from: { path: '^src/(core|nn|formats|metrics|rankers|train|report|datasets|llm/client)/' },
      to: { path: '^src/(env|testbeds|serve|cli|agents|evaluation|study|llm/(?!client/))' },
    },
    {
      name: 'llm-players-see-only-the-harness-interfaces',
      severity: 'error',
      comment: "llm/ (the LLM players: agent.ts, a model as an agent transport; user.ts, a model as the user's voice; the conversation and prompts) sits on the client layer (llm/client/) and the interfaces it implements (agents/); never a testbed, the runner, serve or cli (a testbed's wording reaches it through its LLM section, llm/prompts.ts).",
      from: { path: '^src/llm/(?!client/)', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(env|testbeds|serve|cli|study|runs|evaluation)/' },
    },
    {
      name: 'env-layer-sees-only-the-env-interface',
      severity: 'error',
      comment: 'env/ (the Env contract, registry, make, checker, tools and the one episode loop) is generic: it never imports a testbed, the agent harness, a study, serve or cli.',
      from: { path: '^src/env/' },
      to: { path: '^src/(testbeds|agents|evaluation|study|serve|cli)/' },
    },
    {
      name: 'harness-layers-see-only-the-env-interface',
      severity: 'error',
      comment: 'agents (the agent interface, protocol, transports, the agents registry) and evaluation (the episode runner) are generic: they import env/ (Env, make, tools, the loop), never a testbed, serve or cli.',
      from: { path: '^src/(agents|evaluation)/' },
      to: { path: '^src/(testbeds|serve|cli)/' },
    },
    {
      name: 'agents-do-not-run-episodes',
      severity: 'error',
      comment: 'The agent side does not know the runner.',
      from: { path: '^src/agents/' },
      to: { path: '^src/evaluation/' },
    },
    {
      name: 'study-is-generic',
      comment: 'study/ (a study of people in the loop: configuration, store, scripted participants, report) works for any environment and agent: it imports env/, never a testbed, serve or cli (the caller registers the agents and gives an LLM agent\'s system message).',
      severity: 'error',
      from: { path: '^src/study/' },
      to: { path: '^src/(testbeds|serve|cli)/' },
    },
    {
      name: 'only-the-root-the-cli-and-the-servers-import-the-testbed-list',
      severity: 'error',
      comment: 'The list of testbeds (src/testbeds/index.ts) fills the registries; the root API and the CLI load it, and the servers find a testbed\'s chat through it (its descriptor\'s `chat`); everything else sees the registries.',
      from: { pathNot: ['^src/index\\.ts$', '^src/cli/', '^src/serve/', '^src/testbeds/index\\.ts$', '^test/', '^bench/', '\\.test\\.ts$'] },
      to: { path: '^src/testbeds/index\\.ts$' },
    },
    {
      name: 'testbeds-are-independent',
      severity: 'error',
      comment: 'A testbed imports another only where it extends it (dstc6 → restaurant).',
      from: { path: '^src/testbeds/([^/]+)/' },
      to: { path: '^src/testbeds/([^/]+)/', pathNot: ['^src/testbeds/$1/', '^src/testbeds/restaurant/'] },
    },
    {
      name: 'only-dstc6-extends-restaurant',
      severity: 'error',
      comment: 'Of the testbeds only dstc6 builds on restaurant.',
      from: { path: '^src/testbeds/[^/]+/', pathNot: '^src/testbeds/(dstc6|restaurant)/' },
      to: { path: '^src/testbeds/restaurant/' },
    },
    {
      name: 'testbeds-import-no-serve-or-cli',
      severity: 'error',
      comment: 'A testbed words its episodes for a model through its LLM section (llm/prompts.ts), never through the LLM players.',
      from: { path: '^src/testbeds/' },
      to: { path: '^src/(serve|cli|evaluation)/|^src/llm/(agent|user)\\.ts$' },
    },
    {
      name: 'serve-reaches-testbeds-through-their-descriptors',
      severity: 'error',
      comment: "serve/ (the servers for people) is generic: it finds a testbed's chat, and anything else of a testbed, through the testbeds' list and the descriptor type (src/testbeds/index.ts, src/testbeds/testbed.ts: the descriptor's `chat` and its lazy entry point), never by importing a testbed's folder.",
      from: { path: '^src/serve/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/testbeds/', pathNot: '^src/testbeds/(index|testbed)\\.ts$' },
    },
    {
      name: 'testbeds-know-no-http',
      severity: 'error',
      comment: "A testbed's chat declares its routes as data (`ChatRoute`, src/testbeds/testbed.ts) that serve/ mounts: no testbed imports the HTTP framework.",
      from: { path: '^src/testbeds/' },
      to: { path: '(^|/)node_modules/fastify/' },
    },
    {
      name: 'nothing-imports-cli',
      severity: 'error',
      comment: 'The CLI is a thin layer on top; only its own files (and tests) import it.',
      from: { path: '^(src|bench|examples)/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'runs-are-generic',
      severity: 'error',
      comment: "runs/ (the run machinery: defineRun, the registry loadRun reads, the KB files of the environments; and the generic run, evaluate) imports no testbed, serve or cli: a testbed's runs live in its folder (src/testbeds/<t>/runs/) and its descriptor declares them.",
      from: { path: '^src/runs/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(testbeds|serve|cli)/' },
    },
    {
      name: 'testbeds-see-only-the-run-machinery',
      severity: 'error',
      comment: "A testbed's runs are built with the run machinery (runs/run.ts: defineRun; runs/index.ts and runs/kb.ts: what its descriptor declares), never with the generic runs (evaluate and its helpers).",
      from: { path: '^src/testbeds/' },
      to: { path: '^src/runs/', pathNot: '^src/runs/(run|index|kb)\\.ts$' },
    },
    {
      name: 'only-the-top-imports-runs',
      severity: 'error',
      comment: 'The runs are on top of the library: only the CLI, the root API (src/index.ts), the runs themselves and the testbeds (their runs, the machinery only) import them.',
      from: { path: '^src/', pathNot: '^src/(cli|runs|testbeds)/|^src/index\\.ts$' },
      to: { path: '^src/runs/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: "Every import resolves (examples import the package by its own name, resolved through package.json exports; a testbed's chat page imports the servers' shared dom.js by its URL, /dom.js, served from src/serve/web).",
      from: { pathNot: '^src/testbeds/[^/]+/chat/web/' },
      to: { couldNotResolve: true, pathNot: '^dialogym(/|$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.cts', '.js', '.cjs', '.mjs', '.json'] },
  },
};
