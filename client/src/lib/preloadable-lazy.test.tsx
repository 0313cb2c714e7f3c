import { type ReactNode, Suspense } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { preloadableLazy } from './preloadable-lazy';

const inSuspense = (node: ReactNode) => renderToStaticMarkup(<Suspense fallback={<p>loading</p>}>{node}</Suspense>);

describe('preloadableLazy', () => {
  it('renders a part whose module is already there without suspending', async () => {
    const Part = preloadableLazy(async () => ({ default: ({ name }: { name: string }) => <p>hello {name}</p> }));
    await Part.preload();
    expect(inSuspense(<Part name="Ada" />)).toBe('<p>hello Ada</p>');
  });

  it('suspends while the module is still on its way', () => {
    const Part = preloadableLazy(() => new Promise<{ default: () => ReactNode }>(() => undefined));
    expect(inSuspense(<Part />)).toContain('<p>loading</p>');
  });

  it('loads the module once, and again after a failed download', async () => {
    let calls = 0;
    const Part = preloadableLazy(async () => {
      calls++;
      if (calls === 1) throw new Error('offline');
      return { default: () => <p>the part</p> };
    });
    await expect(Part.preload()).rejects.toThrow('offline');
    await Part.preload();
    await Part.preload();
    expect(calls).toBe(2);
    expect(inSuspense(<Part />)).toBe('<p>the part</p>');
  });
});
