import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { GlobalLoaderProvider } from '../lib/global-loader';
import { queryClient as defaultQueryClient } from '../lib/query-client';

export function AppProviders({
  i18n,
  queryClient = defaultQueryClient,
  children,
}: {
  i18n: I18n;
  queryClient?: QueryClient;
  children: ReactNode;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <GlobalLoaderProvider>{children}</GlobalLoaderProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
