import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './app/providers';
import { PageErrorBoundary } from './app/page-error-boundary';
import { AppRouter, preloadRoute } from './app/router';
import './styles.css';

preloadRoute(window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <PageErrorBoundary>
        <AppRouter />
      </PageErrorBoundary>
    </Providers>
  </StrictMode>,
);
