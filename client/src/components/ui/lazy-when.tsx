import { type ComponentType, lazy, Suspense, useState } from 'react';

/**
 * A component (a form dialog, say) whose code loads the first time it is needed rather than with the screen:
 * it renders nothing until `isOpen(props)` is first true, then loads and stays mounted (so it can animate
 * closed and open again at once). Screens import it in one line instead of the component itself:
 *
 *   const CustomerFormDialog = lazyWhen(
 *     () => import('@/features/customers/components/customer-form-dialog').then((m) => m.CustomerFormDialog),
 *     (props) => props.open,
 *   );
 */
export function lazyWhen<P extends object>(load: () => Promise<ComponentType<P>>, isOpen: (props: P) => boolean) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: called once per dialog at module level, never during render
  return function LazyWhen(props: P) {
    const [used, setUsed] = useState(false);
    const open = isOpen(props);
    if (open && !used) setUsed(true);
    if (!used && !open) return null;
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}
