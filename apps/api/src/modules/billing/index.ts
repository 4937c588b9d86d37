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
export {
  sessionReserveWith,
  type SessionReserveExtension,
  type SessionReserveRow,
  type SessionReserveWith,
} from './billing.queries.js';
export { registerPaymentRoutes } from './payments.routes.js';
export { createPaymentsService, type PaymentsService } from './payments.service.js';
export { createWalletsAdmin, type WalletsAdmin, type WalletSummary } from './wallets-admin.service.js';
