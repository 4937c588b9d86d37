import { Navigate, useParams } from 'react-router';
import { OnboardingFlow, OnboardingNotValid, parseStep } from '../../features/onboarding';

export function OnboardingPage() {
  const step = parseStep(useParams().step);
  if (!step) return <Navigate to="/on-boarding/not-valid" replace />;
  return <OnboardingFlow key={step} step={step} />;
}

export function OnboardingNotValidPage() {
  return <OnboardingNotValid />;
}
