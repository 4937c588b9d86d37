export { ProfileForm } from './components/profile-form';
export { AccountFacts } from './components/account-facts';
export { ChangePasswordForm } from './components/change-password-form';
export { RedeemCodeForm } from './components/redeem-code-form';
export { PlanChangeSummary } from './components/plan-change-summary';
