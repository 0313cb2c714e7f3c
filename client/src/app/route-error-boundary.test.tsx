import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { OptionalPartBoundary, RouteErrorBoundary } from './route-error-boundary';

// Server rendering has no error boundaries, so each test puts the boundary in the state a caught error
// leaves it in (through its own getDerivedStateFromError) and renders what it then shows.
function afterError(error: Error, standalone?: boolean) {
  const boundary = new RouteErrorBoundary({ location: '/somewhere', standalone, children: <p>the screen</p> });
  boundary.state = { ...boundary.state, ...RouteErrorBoundary.getDerivedStateFromError(error) };
  return renderToStaticMarkup(<Router ssrPath="/somewhere">{boundary.render()}</Router>);
}

describe('RouteErrorBoundary', () => {
  it('shows the screen while nothing has failed', () => {
    const boundary = new RouteErrorBoundary({ location: '/', children: <p>the screen</p> });
    expect(renderToStaticMarkup(<div>{boundary.render()}</div>)).toBe('<div><p>the screen</p></div>');
  });

  it('inside the app: try again, or back to the dashboard', () => {
    const html = afterError(new Error('boom'));
    expect(html).toContain('Something went wrong');
    expect(html).toContain('Try again, or go back to the dashboard.');
    expect(html).toContain('Back to Dashboard');
    expect(html).not.toContain('the screen');
  });

  it('on a public page: a whole-page card with no dashboard to go back to', () => {
    const html = afterError(new Error('boom'), true);
    expect(html).toContain('This page could not be shown. Try again in a moment.');
    expect(html).toContain('Try again');
    expect(html).toContain('min-h-screen');
    expect(html).not.toContain('Dashboard');
  });

  it('offers a reload when the screen code could not be downloaded', () => {
    for (const standalone of [false, true]) {
      const html = afterError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'), standalone);
      expect(html).toContain('The app may have been updated: reload the page.');
      expect(html).toContain('Reload page');
      expect(html).not.toContain('Try again');
    }
  });

  it('clears the error when the location changes', () => {
    const props = { location: '/b', children: null };
    const state = { error: new Error('boom'), location: '/a' };
    expect(RouteErrorBoundary.getDerivedStateFromProps(props, state)).toEqual({ location: '/b', error: null });
    expect(RouteErrorBoundary.getDerivedStateFromProps({ ...props, location: '/a' }, state)).toBeNull();
  });
});

describe('OptionalPartBoundary', () => {
  it('shows its part, and leaves it out after an error', () => {
    const boundary = new OptionalPartBoundary({ name: 'header menus', children: <nav>menus</nav> });
    expect(renderToStaticMarkup(<div>{boundary.render()}</div>)).toBe('<div><nav>menus</nav></div>');
    boundary.state = OptionalPartBoundary.getDerivedStateFromError();
    expect(renderToStaticMarkup(<div>{boundary.render()}</div>)).toBe('<div></div>');
  });
});
