/**
 * Layering rules (ARCHITECTURE.md), checked by `npm test` (`npm run lint:deps`):
 * generic layers import no testbed, server or CLI; testbeds import each other only where one
 * extends another (dstc6 → restaurant); the list of testbeds (src/testbeds/index.ts) is imported
 * only by the root API, the CLI and the servers, which reach a testbed only through it and the
 * descriptors; nothing imports the CLI; no import cycles.
 *
 * A testbed is a folder `src/testbeds/<name>/` (its descriptor: `<name>/testbed.ts`); the rules
 * name no testbed but the one extension, so adding a testbed needs no line here.
 */
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
    {
      name: 'generic-layers-import-no-testbed',
      severity: 'error',
      comment: 'core, nn, formats, metrics, rankers, train, report, datasets and llm (the client, the conversation, the prompts: all but the two players below) are generic: they never import env, testbeds, serve, cli, or the agent harness.',
      from: { path: '^src/(core|nn|formats|metrics|rankers|train|report|datasets|llm)/', pathNot: '^src/llm/(agent|user)\\.ts$' },
      to: { path: '^src/(env|testbeds|serve|cli|agents|evaluation|study)/' },
    },
    {
      name: 'llm-players-see-only-the-interfaces',
      severity: 'error',
      comment: "llm/agent.ts (a model as an agent transport) and llm/user.ts (a model as the user's voice) sit on the interfaces they implement — agents/agent.ts and agents/protocol.ts, evaluation/user-voice.ts — and on the rest of llm/; never a testbed, the runner, serve or cli (a testbed's wording reaches them through its LLM section, llm/prompts.ts).",
      from: { path: '^src/llm/(agent|user)\\.ts$' },
      to: { path: '^src/(env|testbeds|serve|cli|study|runs|agents|evaluation)/', pathNot: '^src/agents/(agent|protocol)\\.ts$|^src/evaluation/user-voice\\.ts$' },
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
