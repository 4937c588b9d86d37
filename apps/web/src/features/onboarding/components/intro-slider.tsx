import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses, Card, ChatIcon, cn, focusRing, PuzzleIcon } from '@parley/ui';
import { useExtensionPresence } from '../../../lib/use-extension-presence';

export const SLIDES = ['write', 'chat', 'extension'] as const;

const PenIcon = ({ className }: { className?: string }) => (
  <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
    <path d="M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

const ICONS: Record<(typeof SLIDES)[number], (props: { className?: string }) => ReactNode> = {
  write: PenIcon,
  chat: ChatIcon,
  extension: PuzzleIcon,
};

/** The install slide's call to action, or a word that this browser already has the extension. */
function InstallAction() {
  const { t } = useTranslation('onboarding');
  const presence = useExtensionPresence();
  if (presence.status === 'installed') {
    return (
      <p role="status" className="text-sm font-medium text-emerald-700 dark:text-emerald-300">
        {t('slider.extension.installed')}
      </p>
    );
  }
  return (
    <Link to="/install?next=/on-boarding/2" className={buttonClasses('secondary')}>
      {t('slider.extension.action')}
    </Link>
  );
}

/** Step 1: what Parley does, one slide at a time. The step's Continue moves through the slides (OnboardingFlow). */
export function IntroSlider({ index, onSelect }: { index: number; onSelect: (index: number) => void }) {
  const { t } = useTranslation('onboarding');
  const slide = SLIDES[index] ?? 'write';
  const Icon = ICONS[slide];
  return (
    <section aria-roledescription="carousel" aria-label={t('slider.label')} className="space-y-4">
      <Card
        aria-live="polite"
        aria-roledescription="slide"
        className="flex min-h-52 flex-col gap-3 p-6 sm:flex-row sm:items-start sm:gap-5"
      >
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-blue-50 text-blue-600 dark:bg-blue-950 dark:text-blue-300">
          <Icon className="h-6 w-6" />
        </span>
        <div className="min-w-0 space-y-2">
          {/* Read out with the slide; seen, the dots below say it (a second visible count beside the step's
              "Step 1 of 4" read as another progress). */}
          <p className="sr-only">{t('slider.position', { current: index + 1, total: SLIDES.length })}</p>
          <h2 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t(`slider.${slide}.title`)}</h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`slider.${slide}.body`)}</p>
          {slide === 'extension' && (
            <div className="pt-2">
              <InstallAction />
            </div>
          )}
        </div>
      </Card>
      <div className="flex items-center justify-center gap-2">
        {SLIDES.map((s, i) => (
          <button
            key={s}
            type="button"
            onClick={() => onSelect(i)}
            aria-label={t('slider.goTo', { n: i + 1 })}
            aria-current={i === index ? 'true' : undefined}
            className={cn(
              'h-2.5 rounded-full transition-all',
              focusRing,
              i === index ? 'w-6 bg-blue-500' : 'w-2.5 bg-zinc-300 dark:bg-zinc-700',
            )}
          />
        ))}
      </div>
    </section>
  );
}
