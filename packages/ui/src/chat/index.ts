// The chat pieces shared by the web app and the extension. The transport stays with each app: the web streams with
// fetch, the extension through the background's chat port; both feed the same chunks to `applyChunk`.
export { readSseData, readUiMessageStream, toChunk, type StartMetadata, type StreamChunk } from './stream.js';
export { applyChunk, emptyAnswer, endAnswer, type AnswerState } from './answer.js';
export { ModelPicker, TierBadge, contextLabel } from './model-picker.js';
export { MessageList, CopyButton, type ChatViewMessage, type MessageListProps } from './message-list.js';
export { BasicComposer, SendStopButton, type BasicComposerProps } from './composer.js';
export { useCopy } from './use-copy.js';
