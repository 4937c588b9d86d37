export { registerBillingRoutes } from './billing.routes.js';
export {
  createBillingService,
  NOT_METERED,
  type BillingService,
  type Caller,
  type Payer,
  type Reservation,
  type Use,
  type Wallet,
} from './billing.service.js';
