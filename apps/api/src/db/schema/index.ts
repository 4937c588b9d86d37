export * from './chat.js';
export * from './errors.js';
export * from './users.js';
