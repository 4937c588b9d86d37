import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, LogoMark, cn } from '@parley/ui';

export const ONBOARDING_STEPS = 4;

type Props = {
  step: number;
  title: string;
  subtitle?: string;
  children: ReactNode;
  onSkip?: () => void;
  onContinue: () => void;
  continueLabel?: string;
  busy?: boolean;
};

/** Frame shared by the onboarding steps: progress, content, Skip and Continue. */
export function OnboardingFrame({
  step,
  title,
  subtitle,
  children,
  onSkip,
  onContinue,
  continueLabel,
  busy = false,
}: Props) {
  const { t } = useTranslation('onboarding');
  return (
    <div className="mx-auto flex min-h-dvh max-w-2xl flex-col px-5 py-8">
      <div className="mb-8 flex items-center justify-between">
        <LogoMark />
        <p className="text-xs font-medium text-zinc-500 dark:text-zinc-400">
          {t('progress', { step, total: ONBOARDING_STEPS })}
        </p>
      </div>
      <div className="mb-8 flex gap-1.5" aria-hidden="true">
        {Array.from({ length: ONBOARDING_STEPS }, (_, i) => (
          <span
            key={i}
            className={cn('h-1 flex-1 rounded-full', i < step ? 'bg-blue-500' : 'bg-zinc-200 dark:bg-zinc-800')}
          />
        ))}
      </div>
      <main className="flex-1 space-y-6">
        <div className="space-y-2">
          <h1 className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">{title}</h1>
          {subtitle && <p className="text-sm text-zinc-600 dark:text-zinc-400">{subtitle}</p>}
        </div>
        {children}
      </main>
      <div className="mt-10 flex items-center justify-between gap-3">
        {onSkip ? (
          <Button variant="ghost" onClick={onSkip}>
            {t('skip')}
          </Button>
        ) : (
          <span />
        )}
        <Button onClick={onContinue} loading={busy}>
          {continueLabel ?? t('continue')}
        </Button>
      </div>
    </div>
  );
}
