import { lazy, Suspense, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { cssVariablesResolver, theme } from './theme.ts';

// The toast container and its transitions are fetched with the first toast, not with every first load.
const Toasts = lazy(async () => ({ default: (await import('./toasts.tsx')).Toasts }));

interface AppProvidersProps {
  queryClient: QueryClient;
  /** "test" turns off Mantine transitions and portals in component tests. */
  env?: 'default' | 'test';
  children: ReactNode;
}

export function AppProviders({ queryClient, env = 'default', children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env={env}>
        <ToastsOnDemand />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}

// Toasts shown before the container arrives wait in Mantine's store and appear when it mounts; it stays.
function ToastsOnDemand() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? (
    <Suspense>
      <Toasts />
    </Suspense>
  ) : null;
}
