/**
 * Each verb's summary: its line in `dialogym --help` and the description its module gives commander,
 * kept in one place so the light manifest (index.ts) and the verb modules cannot drift apart.
 */
export const SUMMARY = {
  generate: 'generate a dataset with a simulator',
  stats: 'dialogs, utterances per dialog (user / bot / KB), bot turns and vocabulary of bAbI dialog files',
  walk: 'show bAbI dialogs readably: one turn per line with its speaker (colour on a terminal)',
  train: 'train a response ranker on bAbI dialog files, keep the best epoch on dev, write a model file',
  eval: 'evaluate a model on a bAbI dialog file: per-response and per-dialog accuracy (offline, ranking the file\'s candidates; `dialogym evaluate` plays an environment online)',
  compare: 'compare generated data with the original files',
  benchmark: "train and evaluate every model of the paper's Table 2 on tasks 1-5 (+ OOV) and 6; write benchmark.md, benchmark.json and benchmark.svg",
  babi: 'bAbI dialog tasks 1-6 (the restaurant): stats, walk, train, eval, benchmark, kb, chat, demo (also at the top level under their old names)',
  'dstc6': 'DSTC6 Track 1 tools: walk, check, score, baseline, rank',
  airdialogue: 'AirDialogue tools: logic, score, generate, selfplay, splits, train, eval, rl, tables, chat',
  infobot: 'KB-InfoBot movie search: kb, eval, table, train, chat, agents',
  kb: 'restaurant KB in SQLite for serving: import a bAbI/DSTC6 KB file, run api_calls on it',
  chat: 'chat with a model in the terminal: api_calls run on the KB, /reset, /explain, /history (reads stdin, so it can be piped)',
  serve: 'JSON HTTP API (POST /api/sessions, POST /api/sessions/:id/messages, …) and the web chat UI at /',
  demo: 'end-to-end demo: generate bAbI tasks 1-5, show stats and a dialog, evaluate the rule-based bot',
  evaluate: 'play an online environment with an agent (child process over JSON Lines, HTTP endpoint, or a dialogym model in process): success, pass^k, turns, reward, failures by reason (online; `dialogym babi eval` scores a model offline on a bAbI dialog file)',
  agent: "serve one of dialogym's agents (rules, a model file, an AirDialogue policy) over the agent protocol: a JSON request per stdin line, a JSON reply per stdout line",
  'env-server': 'serve the environments over HTTP: GET /envs, POST /envs/:id → session, POST /sessions/:sid/reset|step, DELETE /sessions/:sid',
  study: 'a study of people in the loop: create (participant codes, blind balanced assignment, SQLite store), serve (participant and admin pages), simulate (scripted participants), report (success with intervals, permutation tests, charts)',
  view: 'a local page to look at what runs wrote in a folder: evaluate transcripts (summary, episodes filtered and read turn by turn, two runs side by side), benchmark and table reports, charts',
  data: 'the original datasets (bAbI dialog tasks, DSTC6, AirDialogue): fetch them from their publishers, list what is here',
  export: "played episodes (evaluate --transcripts, a study's transcripts) as their testbed's dataset: bAbI dialog text, DSTC6 JSON, AirDialogue JSON lines, KB-InfoBot dialog records",
  merge: 'combine the shard files of a run made with --shard i/n into exactly what the unsharded run writes',
} as const;
