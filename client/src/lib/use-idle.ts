import { useEffect, useState } from 'react';

/**
 * False until the browser is idle after the first paint (at the latest `timeout` ms later), then true:
 * for parts of a screen that are not needed to paint it, loaded right after it (docs/decisions/017).
 */
export function useIdle(timeout = 2000): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setIdle(true), Math.min(timeout, 1000));
    return () => clearTimeout(timer);
  }, [timeout]);
  return idle;
}
