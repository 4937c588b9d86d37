import { useId, useState, type CSSProperties, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@parley/i18n';
import { VersionImage } from './parts';

/**
 * Before and after, one over the other: the version it was made from on the left of the line, the current one on the
 * right. The line moves with the slider (arrow keys, Home and End by keyboard) or a drag of the picture.
 */
export function CompareSlider({
  beforeId,
  afterId,
  beforeAlt,
  afterAlt,
  stageStyle,
}: {
  beforeId: string;
  afterId: string;
  beforeAlt: string;
  afterAlt: string;
  /** The stage's box (the current image's shape and size). */
  stageStyle: CSSProperties;
}) {
  const { t, i18n } = useTranslation('images');
  const id = useId();
  const [position, setPosition] = useState(50);
  const percent = (value: number) => formatNumber(value / 100, i18n.language, { style: 'percent' });

  const fromPointer = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width > 0) setPosition(Math.round(Math.min(Math.max((event.clientX - box.left) / box.width, 0), 1) * 100));
  };

  return (
    <div className="space-y-2">
      <div
        className="relative mx-auto w-full touch-none select-none"
        style={stageStyle}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          fromPointer(e);
        }}
        onPointerMove={(e) => {
          if (e.buttons === 1) fromPointer(e);
        }}
      >
        <VersionImage versionId={beforeId} alt={beforeAlt} fill />
        <VersionImage versionId={afterId} alt={afterAlt} fill style={{ clipPath: `inset(0 0 0 ${position}%)` }} />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_0_1px_rgba(0,0,0,0.35)]"
          style={{ left: `${position}%` }}
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute left-2 top-2 rounded bg-zinc-900/70 px-1.5 py-0.5 text-xs text-white"
        >
          {t('compare.before')}
        </span>
        <span
          aria-hidden="true"
          className="pointer-events-none absolute right-2 top-2 rounded bg-zinc-900/70 px-1.5 py-0.5 text-xs text-white"
        >
          {t('compare.after')}
        </span>
      </div>
      <label htmlFor={id} className="sr-only">
        {t('compare.slider')}
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={100}
        value={position}
        onChange={(e) => setPosition(Number(e.target.value))}
        aria-valuetext={t('compare.valueText', { before: percent(position), after: percent(100 - position) })}
        className="w-full accent-blue-600"
      />
    </div>
  );
}
