export { OnboardingFlow, OnboardingNotValid, parseStep, type OnboardingStep } from './components/onboarding-flow';
