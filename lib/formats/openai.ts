import { fileHead, looksLikeOpenai } from './chat-detect';
import { parseConversations } from './chat-conversations';
import { openaiMessagesToSteps } from './chat-messages';
import type { Importer } from './importer';
import { errorItem } from './item';

/**
 * OpenAI chat transcripts: messages with role system/developer/user/assistant/tool, assistant
 * `tool_calls: [{ id, type: "function", function: { name, arguments: "<json string>" } }]`
 * (arguments parsed; a string that is not JSON is kept), tool messages answering by
 * `tool_call_id`, content as a string or an array of parts, and `reasoning_content` when the
 * provider returns it. File shapes: see chat-conversations.ts (array, object, batch, JSONL).
 */
export const openaiImporter: Importer = {
  format: 'openai',
  detect(probe) {
    const head = fileHead(probe);
    return head !== null && looksLikeOpenai(head);
  },
  async *parse(input) {
    if (input.kind !== 'file') {
      yield errorItem(input.dir.path, 'expected an OpenAI chat .json / .jsonl file, found a directory');
      return;
    }
    yield* parseConversations(input.file, 'openai', (messages, pointer) => openaiMessagesToSteps(messages, pointer));
  },
};
