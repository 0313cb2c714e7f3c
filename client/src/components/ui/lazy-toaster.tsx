import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { useToast } from './use-toast';

const Toaster = lazy(() => import('./toaster').then((module) => ({ default: module.Toaster })));

/** The toast region's hotkey (ui-spec section 9: F8 focuses the notifications region). */
const HOTKEY = 'F8';

/**
 * An F8 pressed before the toast region has mounted (Radix Toast listens for it only from then on). The
 * listener is attached when this module loads, before the app's first render.
 */
const earlyHotkey = {
  pending: false,
  regionReady: false,
  listeners: new Set<() => void>(),
  subscribe(listener: () => void) {
    earlyHotkey.listeners.add(listener);
    return () => earlyHotkey.listeners.delete(listener);
  },
  set(pending: boolean) {
    earlyHotkey.pending = pending;
    for (const listener of earlyHotkey.listeners) listener();
  },
};
if (typeof document !== 'undefined') {
  document.addEventListener('keydown', (event) => {
    if (earlyHotkey.regionReady || (event.code !== HOTKEY && event.key !== HOTKEY)) return;
    earlyHotkey.set(true);
  });
}

/**
 * The toast region (toaster.tsx, with Radix Toast) is not needed to paint a screen, nor until something is
 * said in it: it loads with the first toast, or at the first F8. The toast store (use-toast.ts) keeps what
 * was shown meanwhile. F8 pressed before the region is there loads it at once and is handed on to it when it
 * has mounted, so F8 focuses the region from the first moment. A page therefore sits idle without it (the
 * login page loads only its own code: docs/performance.md, "Client weight").
 */
export function LazyToaster() {
  const { toasts } = useToast();
  // Once wanted (an F8, a toast), the region stays: unmounting it would drop the focus F8 gave.
  const [kept, setKept] = useState(false);
  const hotkeyPending = useSyncExternalStore(
    earlyHotkey.subscribe,
    () => earlyHotkey.pending,
    () => false,
  );
  const wanted = kept || hotkeyPending || toasts.length > 0;
  useEffect(() => {
    if (wanted && !kept) setKept(true);
  }, [wanted, kept]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
      <ToasterMounted hotkeyPending={hotkeyPending} />
    </Suspense>
  );
}

/**
 * Rendered after the Toaster, so its effects run once the Toaster's own have (Radix listens for F8 on the
 * document from an effect): marks the region as there, and replays an F8 pressed while it was loading.
 */
function ToasterMounted({ hotkeyPending }: { hotkeyPending: boolean }) {
  useEffect(() => {
    earlyHotkey.regionReady = true;
    return () => {
      earlyHotkey.regionReady = false;
    };
  }, []);
  useEffect(() => {
    if (!hotkeyPending) return;
    earlyHotkey.set(false);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: HOTKEY, code: HOTKEY }));
  }, [hotkeyPending]);
  return null;
}
