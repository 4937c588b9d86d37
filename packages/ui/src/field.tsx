import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { cn } from './cn.js';

const controlClasses =
  'block w-full min-w-0 rounded-md border bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 text-ellipsis focus:outline-none focus:ring-2 disabled:bg-zinc-100 disabled:text-zinc-500 dark:bg-zinc-900 dark:text-zinc-100 dark:disabled:bg-zinc-800';

/** Border and focus ring: red while the field has an error, so the ring says the same as the message under it. */
const stateClasses = (error: string | undefined) =>
  error
    ? 'border-red-500 focus:border-red-500 focus:ring-red-500/40 dark:border-red-400'
    : 'border-zinc-300 focus:border-blue-500 focus:ring-blue-500/40 dark:border-zinc-700';

type FieldChrome = { label: ReactNode; error?: string | undefined; hint?: ReactNode };

export type FieldProps = FieldChrome & { id: string; children: ReactNode };

/**
 * A field's label, then its control (`children`, whose id is `id`), then its hint or its error: the control points
 * at them with aria-describedby `${id}-hint` / `${id}-error`.
 */
export function Field({ id, label, error, hint, children }: FieldProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & FieldChrome;

/** A labelled input; the error is announced and linked with aria-describedby. */
export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, error, hint, id, className, ...rest },
  ref,
) {
  const generated = useId();
  const inputId = id ?? generated;
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;
  return (
    <Field id={inputId} label={label} error={error} hint={hint}>
      <input
        ref={ref}
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(controlClasses, stateClasses(error), className)}
        {...rest}
      />
    </Field>
  );
});

export type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> &
  FieldChrome & { options: readonly { value: string; label: string }[] };

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, error, hint, id, options, className, ...rest },
  ref,
) {
  const generated = useId();
  const selectId = id ?? generated;
  return (
    <Field id={selectId} label={label} error={error} hint={hint}>
      <select
        ref={ref}
        id={selectId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${selectId}-error` : hint ? `${selectId}-hint` : undefined}
        className={cn(controlClasses, stateClasses(error), className)}
        {...rest}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
});
