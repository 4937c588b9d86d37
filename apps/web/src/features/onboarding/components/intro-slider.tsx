import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, cn, focusRing } from '@parley/ui';

const SLIDES = ['write', 'chat', 'extension'] as const;

/** Step 1: what Parley does, one slide at a time. */
export function IntroSlider() {
  const { t } = useTranslation('onboarding');
  const [index, setIndex] = useState(0);
  const slide = SLIDES[index] ?? 'write';
  return (
    <section aria-roledescription="carousel" aria-label={t('slider.label')} className="space-y-4">
      <Card aria-live="polite" className="min-h-44 space-y-2 p-6">
        <p className="text-xs font-semibold uppercase tracking-wide text-blue-600 dark:text-blue-400">
          {t('slider.position', { current: index + 1, total: SLIDES.length })}
        </p>
        <h2 className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">{t(`slider.${slide}.title`)}</h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`slider.${slide}.body`)}</p>
      </Card>
      <div className="flex items-center justify-center gap-2">
        {SLIDES.map((s, i) => (
          <button
            key={s}
            type="button"
            onClick={() => setIndex(i)}
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
