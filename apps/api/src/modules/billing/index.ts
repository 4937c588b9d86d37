export { createCreditsService, type CreditsService, type Reservation } from './credits.service.js';
