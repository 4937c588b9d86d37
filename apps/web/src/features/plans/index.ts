export { plansKeys, useCurrentPlan, usePaymentPlans, type PlanChoice } from './api/plans-api';
export { CheckoutHandoff } from './components/checkout-handoff';
export { CardIcon, PlansIcon } from './components/icons';
export { OnboardingPlanChoice } from './components/onboarding-plan-choice';
export { PaymentConfirmation } from './components/payment-confirmation';
export { PlanChooser, type PlanChooserPaths } from './components/plan-chooser';
export { PlanSettings } from './components/plan-settings';
