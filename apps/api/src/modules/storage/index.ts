export { createFileStore, type FileStore } from './storage.service.js';
