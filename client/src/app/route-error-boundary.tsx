import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { buttonVariants } from '@/components/ui/styles';
import { paths } from '@/lib/paths';

type Props = {
  location: string;
  children: ReactNode;
  /**
   * A page open to visitors who are not signed in (a pay link, checkout, set password, sign in): the card
   * fills the page, and there is no dashboard to go back to.
   */
  standalone?: boolean;
};
type State = { error: Error | null; location: string };

const STALE_CHUNK = /dynamically imported module|Importing a module script failed|Failed to fetch/i;

/**
 * Around each screen: a rendering error shows this card inside the layout (the sidebar and header stay
 * usable) instead of blanking the app; around a page outside the signed-in shell, it fills the page. Going
 * to another screen clears it; "Try again" renders the screen anew, and a screen whose code failed to
 * download (after an update) offers a reload. It is part of the first page a browser loads, so it uses
 * plain elements with the controls' classes rather than the components that pull in tailwind-merge.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: null, location: this.props.location };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location !== state.location ? { location: props.location, error: null } : null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('A screen failed to render', error, info.componentStack);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const { standalone = false } = this.props;
    const stale = STALE_CHUNK.test(error.message);
    let message = 'This screen could not be shown. Try again, or go back to the dashboard.';
    if (stale) message = 'This screen could not be loaded. The app may have been updated: reload the page.';
    else if (standalone) message = 'This page could not be shown. Try again in a moment.';
    return (
      <div
        className={`flex items-center justify-center ${standalone ? 'min-h-screen bg-slate-50 px-4' : 'min-h-[50vh]'}`}
      >
        <div role="alert" className="w-full max-w-md rounded-xl border bg-white p-8 text-center shadow-sm">
          <WarningIcon />
          <h1 className="text-xl font-semibold">Something went wrong</h1>
          <p className="mt-2 text-sm text-muted-foreground">{message}</p>
          <div className="mt-6 flex flex-col justify-center gap-2 sm:flex-row">
            {stale ? (
              <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
                Reload page
              </button>
            ) : (
              <button type="button" className={buttonVariants()} onClick={() => this.setState({ error: null })}>
                Try again
              </button>
            )}
            {!standalone && (
              <Link
                href={paths.dashboard}
                className={buttonVariants({ variant: 'outline' })}
                onClick={() => this.setState({ error: null })}
              >
                Back to Dashboard
              </Link>
            )}
          </div>
        </div>
      </div>
    );
  }
}

/**
 * Around a part of the frame that the page can do without (the header's menus, the phone navigation): if its
 * code fails to load or render, it is left out and the rest of the page keeps working.
 */
export class OptionalPartBoundary extends Component<{ name: string; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: Error) {
    console.error(`The ${this.props.name} could not be shown`, error);
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** Lucide's triangle-alert, drawn here so that the first page does not load the icon library's runtime. */
function WarningIcon() {
  return (
    <svg
      aria-hidden
      className="mx-auto mb-3 size-10 text-amber-500"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" />
      <path d="M12 9v4" />
      <path d="M12 17h.01" />
    </svg>
  );
}
