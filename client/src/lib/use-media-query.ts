import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now, updated as the window changes (e.g. "(min-width: 640px)"). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Tailwind's `sm` breakpoint and up: wider than a phone held upright. */
export const useWideScreen = () => useMediaQuery('(min-width: 640px)');
