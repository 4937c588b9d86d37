import { cn } from '@parley/ui';

type Option<V extends string> = { value: V; label: string; description?: string };

/** A labelled radio group drawn as cards; arrow keys move between options (native radios). */
export function ChoiceGroup<V extends string>({
  legend,
  hideLegend = false,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  /** The legend is read out but not shown (a heading above already says it). */
  hideLegend?: boolean;
  name: string;
  value: V;
  options: Option<V>[];
  onChange: (value: V) => void;
}) {
  return (
    <fieldset>
      <legend className={hideLegend ? 'sr-only' : 'mb-2 text-sm font-medium text-zinc-800 dark:text-zinc-200'}>
        {legend}
      </legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {options.map((o) => (
          <label
            key={o.value}
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-lg border p-3 text-sm transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500',
              o.value === value
                ? 'border-blue-500 bg-blue-50/60 dark:bg-blue-500/10'
                : 'border-zinc-200 hover:border-zinc-300 dark:border-zinc-800 dark:hover:border-zinc-700',
            )}
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={o.value === value}
              onChange={() => onChange(o.value)}
              className="mt-0.5 accent-blue-500 focus:outline-none"
            />
            <span>
              <span className="block font-medium text-zinc-900 dark:text-zinc-100">{o.label}</span>
              {o.description && <span className="block text-xs text-zinc-500 dark:text-zinc-400">{o.description}</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
