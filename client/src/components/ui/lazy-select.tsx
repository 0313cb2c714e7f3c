import { ChevronDown } from 'lucide-react';
import { type ComponentType, type KeyboardEvent, type PointerEvent, type ReactNode, useRef, useState } from 'react';

export type LazySelectOption = { value: string; label: ReactNode };

export type LazySelectProps = {
  /** The chosen value; '' or undefined shows the placeholder. */
  value: string | undefined;
  onValueChange: (value: string) => void;
  onBlur?: () => void;
  placeholder: string;
  /** What the trigger shows for the chosen value (its label). */
  display?: ReactNode;
  options: readonly LazySelectOption[];
  /** For FormField: its label names the trigger, its message describes it. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** A name of its own, over its label's (a filter's "Filter by status" beside its visible "Status"). */
  'aria-label'?: string;
};

type Radix = ComponentType<LazySelectProps & { open: boolean; focus: boolean }>;
let radix: Radix | undefined;
let loading: Promise<Radix> | undefined;
/** Loads the Radix select (once; again after a failed download). */
function loadRadix(): Promise<Radix> {
  loading ??= import('./lazy-select-radix').then(
    (module) => {
      radix = module.default;
      return radix;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The look of select.tsx's SelectTrigger, copied: a module both import would be a chunk of its own, or part of
 * the shell, on every screen's first load.
 */
const TRIGGER_CLASS =
  'flex h-9 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-input bg-white px-3 py-2 text-left text-sm shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:border-destructive data-[placeholder]:text-muted-foreground [&>span]:truncate';

/** The keys that open a Radix select's trigger. */
const OPEN_KEYS = new Set([' ', 'Enter', 'ArrowUp', 'ArrowDown']);

/**
 * A select of options that paints without the Radix select (about 30 kB gzip with its positioning code): a
 * button that looks and reads as the select's trigger (a labelled combobox showing the chosen label or the
 * placeholder) until it is first used. Pointing at it or focusing it starts the download; pressing it, or Enter,
 * Space or an arrow key on it, opens the Radix select as soon as it is there (at once when another select of
 * the page loaded it already); another key puts the Radix trigger in its place, focused, for type-ahead.
 * The contract form's selects use it: they keep that screen's first load within the budget
 * (docs/performance.md, "Client weight").
 */
export function LazySelect(props: LazySelectProps) {
  const [wanted, setWanted] = useState<{ open: boolean; focus: boolean } | null>(null);
  const [, setLoaded] = useState(false);
  const button = useRef<HTMLButtonElement>(null);

  const openRadix = (open: boolean) => {
    const focus = document.activeElement === button.current;
    setWanted({ open, focus });
    if (!radix) {
      loadRadix().then(
        () => setLoaded(true),
        () => setWanted(null),
      );
    }
  };

  if (wanted && radix) {
    const Radix = radix;
    return <Radix {...props} open={wanted.open} focus={wanted.focus} />;
  }
  const { value, onBlur, placeholder, display, id } = props;
  const empty = !value;
  return (
    <button
      ref={button}
      type="button"
      role="combobox"
      aria-expanded={false}
      aria-autocomplete="none"
      aria-invalid={props['aria-invalid']}
      aria-describedby={props['aria-describedby']}
      aria-label={props['aria-label']}
      id={id}
      dir="ltr"
      data-state="closed"
      data-placeholder={empty ? '' : undefined}
      className={TRIGGER_CLASS}
      onPointerEnter={() => void loadRadix().catch(() => undefined)}
      onFocus={() => void loadRadix().catch(() => undefined)}
      onBlur={onBlur}
      onPointerDown={(event: PointerEvent) => {
        if (event.button !== 0 || event.ctrlKey) return;
        event.preventDefault();
        openRadix(true);
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
        if (OPEN_KEYS.has(event.key)) event.preventDefault();
        openRadix(OPEN_KEYS.has(event.key));
      }}
    >
      <span style={{ pointerEvents: 'none' }}>{empty ? placeholder : display}</span>
      <ChevronDown className="size-4 shrink-0 opacity-50" aria-hidden />
    </button>
  );
}
