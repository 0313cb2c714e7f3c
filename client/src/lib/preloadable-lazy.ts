import { type ComponentType, type LazyExoticComponent, lazy, useEffect, useReducer } from 'react';

type Module<P> = { default: ComponentType<P> };

export type Preloadable = {
  /** Starts the download (once) and resolves with the module. */
  preload: () => Promise<unknown>;
  /** Whether the module is there, on its way (a download started by `preload`), or neither. */
  status: () => 'loaded' | 'loading' | 'idle';
};

/**
 * React.lazy for a part whose download usually starts before it is first rendered (the signed-in shell and the
 * screen at the address, fetched as soon as the entry runs, or while signing in). When its module is already
 * there, it renders at once instead of suspending: React 19 shows the content of a Suspense boundary that has
 * just shown its fallback no sooner than 300 ms after that fallback, which a first load would otherwise pay
 * for the shell and again for the screen. `load` runs once; a failed download is tried again next time.
 */
export function preloadableLazy<P extends object>(
  load: () => Promise<Module<P>>,
): LazyExoticComponent<ComponentType<P>> & Preloadable {
  let loaded: Module<P> | undefined;
  let loading: Promise<Module<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const status = () => (loaded ? 'loaded' : loading ? 'loading' : 'idle');
  // React.lazy accepts any thenable: one that calls back at once hands the module over without suspending.
  const ready = (module: Module<P>) =>
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, resolved synchronously (see above)
    ({ then: (resolve: (value: Module<P>) => void) => resolve(module) }) as unknown as Promise<Module<P>>;
  return Object.assign(
    lazy(() => (loaded ? ready(loaded) : preload())),
    { preload, status },
  );
}

/**
 * False while any of the parts is on its way (its download started with `preload`), then true (also when a
 * download failed: the part's error boundary shows it when it renders). Parts nobody preloaded are not
 * waited for: they suspend as lazy parts do. A router renders a spinner of its own meanwhile, so no Suspense
 * fallback is shown and React does not hold the parts back once they are there.
 */
export function usePreloaded(parts: readonly (Preloadable | undefined)[]): boolean {
  const [, arrived] = useReducer((count: number) => count + 1, 0);
  const onTheWay = parts.filter((part) => part?.status() === 'loading') as Preloadable[];
  useEffect(() => {
    if (!onTheWay.length) return;
    let current = true;
    void Promise.allSettled(onTheWay.map((part) => part.preload())).then(() => {
      if (current) arrived();
    });
    return () => {
      current = false;
    };
  });
  return onTheWay.length === 0;
}
