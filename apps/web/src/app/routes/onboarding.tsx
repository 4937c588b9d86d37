import { Navigate, useParams } from 'react-router';
import { OnboardingFlow, OnboardingNotValid, parseStep } from '../../features/onboarding';
import { OnboardingPlanChoice } from '../../features/plans';

export function OnboardingPage() {
  const step = parseStep(useParams().step);
  if (!step) return <Navigate to="/on-boarding/not-valid" replace />;
  return (
    <OnboardingFlow
      key={step}
      step={step}
      planChoices={
        step === 3 ? <OnboardingPlanChoice checkoutPath="/payment-call" plansPath="/subscription" /> : undefined
      }
    />
  );
}

export function OnboardingNotValidPage() {
  return <OnboardingNotValid />;
}
