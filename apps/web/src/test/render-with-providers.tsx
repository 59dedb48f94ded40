import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render, type RenderOptions } from '@testing-library/react';
import { MemoryRouter } from 'react-router';

interface ProvidersOptions extends Omit<RenderOptions, 'wrapper'> {
  /** Initial URL for the MemoryRouter, for widgets that keep state in search params. */
  route?: string;
}

// env="test" turns off transitions and portals so what the user would see is in the DOM at once.
export function Providers({ children, route = '/' }: { children: ReactNode; route?: string }) {
  return (
    <MantineProvider env="test">
      <Notifications />
      <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
    </MantineProvider>
  );
}

export function renderWithProviders(ui: ReactElement, { route, ...options }: ProvidersOptions = {}) {
  return render(ui, {
    wrapper: ({ children }) => <Providers route={route}>{children}</Providers>,
    ...options,
  });
}
