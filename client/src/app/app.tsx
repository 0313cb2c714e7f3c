import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { LazyToaster } from '@/components/ui/lazy-toaster';
import { FullPageSpinner } from '@/components/ui/spinner';
import { installSessionExpiry } from '@/features/auth/session';
import { queryClient } from '@/lib/query-client';
import { AppRouter } from './router';

// A 401 after sign-in (the session expired or was revoked) returns to the login screen, which says so.
installSessionExpiry(queryClient);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      {/* The signed-in shell and its screens load on demand (router.tsx): a spinner until they are in. */}
      <Suspense fallback={<FullPageSpinner />}>
        <AppRouter />
      </Suspense>
      <LazyToaster />
    </QueryClientProvider>
  );
}
