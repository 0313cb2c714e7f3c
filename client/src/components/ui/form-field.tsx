import { cloneElement, type ReactElement, useId } from 'react';
import { labelClass } from './styles';

/**
 * A labelled form control with its error message, wired for screen readers
 * (label for/id, aria-invalid, aria-describedby). It needs no tailwind-merge, so the sign-in screen uses it.
 */
export function FormField({
  label,
  error,
  hint,
  children,
  id: givenId,
  className,
}: {
  label: string;
  error?: string;
  hint?: string;
  id?: string;
  /** Classes added to the field's grid (its place in a row of fields). */
  className?: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  const generated = useId();
  const id = givenId ?? generated;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `grid gap-1.5 ${className}` : 'grid gap-1.5'}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {cloneElement(children, { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
