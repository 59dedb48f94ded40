import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TOAST_TIMEOUT_MS } from '@clinicrelay/contracts/constants.ts';
import { theme } from './theme.ts';

interface AppProvidersProps {
  queryClient: QueryClient;
  /** "test" turns off Mantine transitions and portals in component tests. */
  env?: 'default' | 'test';
  children: ReactNode;
}

// Queries outermost so modals opened through ModalsProvider can use them too.
export function AppProviders({ queryClient, env = 'default', children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} env={env}>
        <Notifications position="top-right" autoClose={TOAST_TIMEOUT_MS} />
        <ModalsProvider>{children}</ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
