// The chat pieces shared by the web app and the extension. The transport stays with each app: the web streams with
// fetch, the extension through the background's chat port; both feed the same chunks to `applyChunk`. What the tools
// need from the app (transcription, translation) comes through `ChatServicesProvider`.
export { readSseData, readUiMessageStream, toChunk, type StartMetadata, type StreamChunk } from './stream.js';
export { applyChunk, emptyAnswer, endAnswer, type AnswerState } from './answer.js';
export { ModelPicker, TierBadge, contextLabel } from './model-picker.js';
export { ModelFallbackNote, ModelSelectField } from './model-select.js';
export { modelName } from './model-name.js';
export { MessageList, CopyButton, type ChatViewMessage, type MessageListProps } from './message-list.js';
export { Composer, SendStopButton, type ComposerHandle, type ComposerProps, type ComposerSubmit } from './composer.js';
export {
  ACCEPT,
  IMAGE_MAX_MB,
  MAX_FILES,
  PDF_MAX_MB,
  checkFiles,
  fileKind,
  type AttachmentKind,
  type FileProblem,
} from './file-checks.js';
export {
  MessageActionButton,
  ReadAloudButton,
  ReadAloudProblem,
  TranslateButton,
  TranslationPanel,
  messageActionButton,
  useMessageTranslation,
  type MessageTranslation,
} from './message-tools.js';
export { ChatServicesProvider, useChatServices, type ChatServices } from './services.js';
export { TranslateMenu, languageName } from './translate-menu.js';
export { speechText, useSpeech, type Speech } from './use-speech.js';
export { useVoiceInput, type VoiceProblem, type VoiceState } from './use-voice-input.js';
export { useCopy } from './use-copy.js';
