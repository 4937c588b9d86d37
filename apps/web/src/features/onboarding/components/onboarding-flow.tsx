import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { buttonClasses, Card } from '@parley/ui';
import { errorMessage } from '../../../lib/api';
import { useWithLoader } from '../../../lib/global-loader';
import { STORAGE_KEYS } from '../../../lib/session';
import { useSettings, useUpdateSettings } from '../../../lib/settings';
import { IntroSlider, SLIDES } from './intro-slider';
import { OnboardingFrame } from './onboarding-frame';
import { PlanStep } from './plan-step';
import { PreferencesStep, type Preferences } from './preferences-step';

export type OnboardingStep = 1 | 2 | 3 | 4;

export function parseStep(value: string | undefined): OnboardingStep | null {
  return value === '1' || value === '2' || value === '3' || value === '4' ? (Number(value) as OnboardingStep) : null;
}

/**
 * The four onboarding pages; Skip and the last step both end at `donePath` (home, unless the app has something
 * waiting for this person). `planChoices` (step 3, the payment step) is what the app offers beside the free plan:
 * the paid plans and their checkout.
 */
export function OnboardingFlow({
  step,
  planChoices,
  donePath = '/home',
}: {
  step: OnboardingStep;
  planChoices?: ReactNode;
  donePath?: string;
}) {
  const { t } = useTranslation('onboarding');
  const navigate = useNavigate();
  const settings = useSettings();
  const update = useUpdateSettings();
  const withLoader = useWithLoader();
  const [preferences, setPreferences] = useState<Preferences | null>(null);
  const [slide, setSlide] = useState(0);

  const finish = () => {
    localStorage.removeItem(STORAGE_KEYS.firstLogin);
    navigate(donePath, { replace: true });
  };
  const next = () => navigate(`/on-boarding/${step + 1}`);

  if (step === 1) {
    return (
      <OnboardingFrame
        step={1}
        title={t('step1.title')}
        subtitle={t('step1.subtitle')}
        onSkip={finish}
        // Continue shows every slide, the install one included, before the next step.
        onContinue={() => (slide < SLIDES.length - 1 ? setSlide(slide + 1) : next())}
      >
        <IntroSlider index={slide} onSelect={setSlide} />
      </OnboardingFrame>
    );
  }
  if (step === 2) {
    const saveAndContinue = () => {
      if (!preferences) return next();
      withLoader('saving', () => update.mutateAsync(preferences))
        .then(next)
        .catch((error: unknown) => toast.error(errorMessage(error)));
    };
    const initial = settings.data
      ? { language: settings.data.language, tone: settings.data.tone, model: settings.data.model }
      : undefined;
    return (
      <OnboardingFrame
        step={2}
        title={t('step2.title')}
        subtitle={t('step2.subtitle')}
        onSkip={finish}
        onContinue={saveAndContinue}
        busy={update.isPending}
      >
        <PreferencesStep initial={initial} onChange={setPreferences} />
      </OnboardingFrame>
    );
  }
  if (step === 3) {
    return (
      <OnboardingFrame
        step={3}
        title={t('step3.title')}
        subtitle={t('step3.subtitle')}
        onSkip={finish}
        onContinue={next}
      >
        <PlanStep />
        {planChoices}
      </OnboardingFrame>
    );
  }
  return (
    <OnboardingFrame
      step={4}
      title={t('step4.title')}
      subtitle={t('step4.subtitle')}
      onContinue={finish}
      continueLabel={t('getStarted')}
    >
      <Card className="space-y-2 p-6 text-sm text-zinc-600 dark:text-zinc-400">
        <p>{t('step4.body')}</p>
      </Card>
    </OnboardingFrame>
  );
}

/** /on-boarding/not-valid: a step that does not exist (the spec's "video" page; nothing remote is embedded). */
export function OnboardingNotValid() {
  const { t } = useTranslation('onboarding');
  return (
    <div className="mx-auto flex min-h-dvh max-w-md flex-col justify-center p-6">
      <Card className="space-y-4 p-8">
        <h1 className="text-xl font-semibold text-zinc-900 dark:text-zinc-50">{t('notValid.title')}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('notValid.body')}</p>
        <Link to="/on-boarding/1" className={buttonClasses('primary', 'w-full')}>
          {t('notValid.restart')}
        </Link>
      </Card>
    </div>
  );
}
