import { AlertTriangle } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';

type Props = { location: string; children: ReactNode };
type State = { error: Error | null; location: string };

/**
 * Around each screen: a rendering error shows this card inside the layout (the sidebar and header stay
 * usable) instead of blanking the app. Going to another screen clears it; "Try again" renders the screen
 * anew, and a screen whose code failed to download (after an update) offers a reload.
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
    const stale = /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message);
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <div role="alert" className="w-full max-w-md rounded-xl border bg-white p-8 text-center shadow-sm">
          <AlertTriangle className="mx-auto mb-3 size-10 text-amber-500" aria-hidden />
          <h1 className="text-xl font-semibold">Something went wrong</h1>
          <p className="mt-2 text-sm text-muted-foreground">
            {stale
              ? 'This screen could not be loaded. The app may have been updated: reload the page.'
              : 'This screen could not be shown. Try again, or go back to the dashboard.'}
          </p>
          <div className="mt-6 flex flex-col justify-center gap-2 sm:flex-row">
            {stale ? (
              <Button onClick={() => window.location.reload()}>Reload page</Button>
            ) : (
              <Button onClick={() => this.setState({ error: null })}>Try again</Button>
            )}
            <Button variant="outline" asChild>
              <Link href={paths.dashboard} onClick={() => this.setState({ error: null })}>
                Back to Dashboard
              </Link>
            </Button>
          </div>
        </div>
      </div>
    );
  }
}
