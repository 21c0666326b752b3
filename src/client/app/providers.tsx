import * as React from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { queryClient } from '@/lib/query-client';
import { ToasterLoader } from '@/components/ui/toaster-loader';
import { dismissErrorToastsAway } from '@/components/ui/use-toast';
import { SkipLink } from './skip-link';

/** A failure's toast does not follow the user to the next page. */
function ErrorToastsStayOnTheirPage() {
  const [path] = useLocation();
  React.useEffect(() => dismissErrorToastsAway(path), [path]);
  return null;
}

export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SkipLink />
      {children}
      <ErrorToastsStayOnTheirPage />
      <ToasterLoader />
    </QueryClientProvider>
  );
}
