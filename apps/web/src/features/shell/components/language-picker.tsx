import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@parley/i18n';
import { GlobeIcon, cn } from '@parley/ui';

type Props = {
  id: string;
  value: Language;
  onChange: (language: Language) => void;
  /**
   * On narrow screens, show a globe and the language's code (the list that opens still names every language in
   * full). The native select sits on top, invisible, so a tap or a key press opens the same list.
   */
  compactWhenNarrow?: boolean;
};

/** The interface language, each one named in its own language (English, Español, Français). */
export function LanguagePicker({ id, value, onChange, compactWhenNarrow = false }: Props) {
  const { t } = useTranslation('shell');
  return (
    <div
      className={cn(
        'relative inline-flex items-center rounded-md',
        // The select may be invisible (compact): its focus shows on the box around it.
        'has-[select:focus-visible]:ring-2 has-[select:focus-visible]:ring-blue-500 has-[select:focus-visible]:ring-offset-2 has-[select:focus-visible]:ring-offset-white dark:has-[select:focus-visible]:ring-offset-zinc-950',
      )}
    >
      <label className="sr-only" htmlFor={id}>
        {t('language')}
      </label>
      {compactWhenNarrow && (
        <span
          aria-hidden="true"
          className="inline-flex items-center gap-1 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm font-medium uppercase text-zinc-700 sm:hidden dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
        >
          <GlobeIcon />
          {value}
        </span>
      )}
      <select
        id={id}
        value={value}
        lang={value}
        onChange={(e) => onChange(e.target.value as Language)}
        className={cn(
          'rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 focus:outline-none dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
          compactWhenNarrow &&
            'absolute inset-0 h-full w-full cursor-pointer opacity-0 sm:static sm:h-auto sm:w-auto sm:opacity-100',
        )}
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`languages.${lng}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
