export { createCreditsService, NOT_METERED, type CreditsService, type Reservation } from './billing.service.js';
