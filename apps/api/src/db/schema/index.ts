export * from './admin.js';
export * from './billing.js';
export * from './chat.js';
export * from './errors.js';
export * from './mail.js';
export * from './organizations.js';
export * from './templates.js';
export * from './users.js';
