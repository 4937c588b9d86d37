/**
 * Everything in the contract that is plain data (no zod): routes, catalogue, defaults, limits, codes. Client code
 * imports values from here so pages that validate nothing do not load zod; schemas come from the package root.
 */
export * from './catalogue.js';
export * from './error-codes.js';
export * from './form-checks.js';
export * from './image-catalogue.js';
export { cleanLine, cleanText } from './clean.js';
export * from './languages.js';
export * from './limits.js';
export * from './model-choice.js';
export * from './plans.js';
export * from './routes.js';
export * from './settings-sites.js';
export * from './settings-values.js';
export * from './template-values.js';
