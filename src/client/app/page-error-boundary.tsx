import * as React from 'react';
import { useLocation } from 'wouter';
import { QueryError } from '@/components/query-error';

/** What a page that failed to open says: offline first, then a chunk that did not load, else a bug. */
function describe(error: unknown): Error {
  if (typeof navigator !== 'undefined' && !navigator.onLine)
    return new Error("You're offline. Check your connection and try again.");
  const message = error instanceof Error ? error.message : '';
  // Chromium, Firefox and Safari's words for a page chunk that did not arrive
  if (/dynamically imported module|Importing a module script failed|error loading dynamically/i.test(message)) {
    return new Error('This page could not be loaded. Check your connection and try again.');
  }
  return new Error('Something went wrong. Please try again.');
}

/**
 * Every page is a lazy chunk: one that cannot be fetched (offline) or a page that throws would
 * otherwise leave a blank screen. Says so instead, with "Try again" (a reload: React keeps a failed
 * chunk failed). Going to another page clears it.
 */
class Boundary extends React.Component<
  { path: string; children: React.ReactNode },
  { error: Error | null; path: string }
> {
  state = { error: null as Error | null, path: this.props.path };

  static getDerivedStateFromError(error: unknown) {
    return { error: describe(error) };
  }

  static getDerivedStateFromProps(props: { path: string }, state: { error: Error | null; path: string }) {
    return props.path === state.path ? null : { error: null, path: props.path };
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="mx-auto flex min-h-page max-w-xl items-center p-4">
        <QueryError
          query={{ error: this.state.error, refetch: () => window.location.reload(), isFetching: false }}
          title="Couldn't open this page"
          className="w-full"
        />
      </main>
    );
  }
}

/** The boundary of the current page: keyed by nothing, so the shell is not remounted on navigation. */
export function PageErrorBoundary({ children }: { children: React.ReactNode }) {
  const [path] = useLocation();
  return <Boundary path={path}>{children}</Boundary>;
}
