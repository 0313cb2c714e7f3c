import { type ReactNode, useEffect, useState } from 'react';

/** ui-spec section 9: one toast at a time; a dismissed toast is removed from memory after 1,000,000 ms. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

export type ToastInput = {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  action?: ReactNode;
  duration?: number;
};

export type ToastItem = ToastInput & { id: string; open: boolean };

type State = { toasts: ToastItem[] };

let state: State = { toasts: [] };
let counter = 0;
const listeners = new Set<(state: State) => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setState(next: State) {
  state = next;
  for (const listener of listeners) listener(state);
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      setState({ toasts: state.toasts.filter((t) => t.id !== id) });
    }, TOAST_REMOVE_DELAY),
  );
}

export function dismissToast(id?: string) {
  for (const toast of state.toasts) if (!id || toast.id === id) scheduleRemoval(toast.id);
  setState({ toasts: state.toasts.map((t) => (!id || t.id === id ? { ...t, open: false } : t)) });
}

/** Shows a toast (replacing the one on screen) and returns its id. */
export function toast(input: ToastInput): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  setState({ toasts: [{ ...input, id, open: true }, ...state.toasts].slice(0, TOAST_LIMIT) });
  return id;
}

export function useToast() {
  const [current, setCurrent] = useState(state);
  useEffect(() => {
    listeners.add(setCurrent);
    return () => {
      listeners.delete(setCurrent);
    };
  }, []);
  return { toasts: current.toasts, toast, dismiss: dismissToast };
}
