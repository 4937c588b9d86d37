export { registerChatRoutes } from './chat.routes.js';
export { createChatService, type ChatService } from './chat.service.js';
export { createTurns, type Turns } from './turn/index.js';
export { createHistories, type Histories } from './turn/histories.js';
