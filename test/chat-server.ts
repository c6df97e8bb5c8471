/** The chat servers of the tests, as `dialogym serve` builds them: the restaurant chat of a model on a KB (`serve --model`), and more chats beside it. */
import { serveChats, type ChatServer, type HostedChat, type ServerOptions } from '../src/serve/server.js';
import { restaurantChatBackend } from '../src/testbeds/restaurant/chat/backend.js';
import type { ChatModel } from '../src/testbeds/restaurant/chat/chat-model.js';
import type { SessionKb, SessionOptions } from '../src/testbeds/restaurant/chat/session.js';

/** A server hosting the restaurant chat of `model` on `kb` (the server's and the sessions' options from one bag), and `more` chats. */
export function restaurantServer(model: ChatModel, kb: SessionKb, opts: ServerOptions & SessionOptions = {}, more: readonly HostedChat[] = []): ChatServer {
  return serveChats([{ testbed: 'restaurant', chat: restaurantChatBackend({ model, kb }, opts) }, ...more], opts);
}
