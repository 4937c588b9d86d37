export * from './errors.js';
export * from './users.js';
