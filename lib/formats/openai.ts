import { looksLikeOpenai } from './chat-detect';
import { parseConversations } from './chat-conversations';
import { openaiMessagesToSteps } from './chat-messages';
import { fileImporter } from './file-importer';
import type { Importer } from './importer';

/**
 * OpenAI chat transcripts: messages with role system/developer/user/assistant/tool, assistant
 * `tool_calls: [{ id, type: "function", function: { name, arguments: "<json string>" } }]`
 * (arguments parsed; a string that is not JSON is kept), tool messages answering by
 * `tool_call_id`, content as a string or an array of parts, and `reasoning_content` when the
 * provider returns it. File shapes: see chat-conversations.ts (array, object, batch, JSONL).
 */
export const openaiImporter: Importer = fileImporter({
  format: 'openai',
  fileLabel: 'an OpenAI chat .json / .jsonl file',
  looksLike: looksLikeOpenai,
  parseFile: (file) => parseConversations(file, 'openai', (messages, pointer) => openaiMessagesToSteps(messages, pointer)),
});
