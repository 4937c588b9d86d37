export { createCreditsService, NOT_METERED, type CreditsService, type Reservation } from './credits.service.js';
