/**
 * The LLM client's default limits, in a module of their own so that the CLI's `--help` shows them
 * without loading the client.
 */

/** The default longest response body of the LLM endpoint (`maxReplyBytes`): 4 MiB (a chat model's reply is a few KB). */
export const DEFAULT_MAX_LLM_REPLY_BYTES = 4 * 1024 * 1024;
