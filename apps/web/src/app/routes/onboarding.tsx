import { Navigate, useParams } from 'react-router';
import { OnboardingFlow, OnboardingNotValid, parseStep } from '../../features/onboarding';
import { OnboardingPlanChoice } from '../../features/plans';
import { pendingJoinPath } from '../../lib/pending-join';

export function OnboardingPage() {
  const step = parseStep(useParams().step);
  if (!step) return <Navigate to="/on-boarding/not-valid" replace />;
  return (
    <OnboardingFlow
      key={step}
      step={step}
      // An invitation opened before signing up is where onboarding leads, rather than home.
      donePath={pendingJoinPath() ?? '/home'}
      planChoices={
        step === 3 ? <OnboardingPlanChoice checkoutPath="/payment-call" plansPath="/subscription" /> : undefined
      }
    />
  );
}

export function OnboardingNotValidPage() {
  return <OnboardingNotValid />;
}
