export { registerChatRoutes } from './chat.routes.js';
export { createChatService, type ChatService, type ChatTools } from './chat.service.js';
export { createKeysService, type KeysService } from './keys.service.js';
export { createWritingService, registerWritingRoutes, type WritingService } from './writing.service.js';
