import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from './app-test-harness.tsx';

let uninstall: (() => void) | undefined;

beforeEach(() => {
  signIn();
});

afterEach(() => {
  uninstall?.();
});

function start(url: string) {
  const app = renderApp(url);
  uninstall = app.uninstall;
  return app;
}

const twoOrganizations = demoProfile({
  roles: ['Administrator'],
  organizations: [
    { id: 'org-lakeside', subDomain: 'lakeside', name: 'Lakeside Clinic' },
    { id: 'org-riverview', subDomain: 'riverview', name: 'Riverview Health' },
  ],
});

describe('signed-in layout', () => {
  it('shows the product, the organization, the user and the sidebar for the role', async () => {
    stubApi({ profile: demoProfile({ roles: ['User'] }) });
    start('/intake');
    await screen.findByRole('heading', { level: 1, name: 'Intake' });
    expect(screen.getAllByText('ClinicRelay').length).toBeGreaterThan(0);
    expect(screen.getByText('Lakeside Clinic')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Alex Morgan' })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Organization' })).toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Intake', 'Release']);
    expect(screen.getByText(`© ${new Date().getFullYear()} ClinicRelay`)).toBeTruthy();
  });

  it('saves the collapsed sidebar in the user preferences', async () => {
    const { calls } = stubApi();
    start('/intake');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Collapse sidebar' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'PUT /api/users/preferences')?.body).toEqual({ sidebarCollapsed: true }));
    expect(await screen.findByRole('button', { name: 'Expand sidebar' })).toBeTruthy();
  });

  it('switches organization, replacing the profile and reloading the page', async () => {
    const { calls } = stubApi({
      profile: twoOrganizations,
      handlers: {
        'POST /api/account/change': () =>
          json(200, { ...twoOrganizations, organizationId: 'org-riverview', organizationName: 'Riverview Health' }),
      },
    });
    const { router } = start('/release');
    await screen.findByRole('heading', { level: 1, name: 'Release' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Organization' }));
    await user.click(await screen.findByRole('option', { name: 'Riverview Health' }));
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Organization' }).value).toBe('Riverview Health'));
    expect(calls.find((c) => c.key === 'POST /api/account/change')?.body).toEqual({ orgId: 'org-riverview' });
    // Everything but the profile is fetched again for the new organization.
    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/features')).toHaveLength(2));
    expect(calls.filter((c) => c.key === 'GET /api/users/profiledata')).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/release');
  });

  it('sends the user to sign in when switching returns no profile', async () => {
    stubApi({ profile: twoOrganizations, handlers: { 'POST /api/account/change': () => new Response(null, { status: 200 }) } });
    const { router } = start('/release');
    await screen.findByRole('heading', { level: 1, name: 'Release' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Organization' }));
    await user.click(await screen.findByRole('option', { name: 'Riverview Health' }));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/account/login');
    expect(localStorage.getItem('clinicrelay.refreshToken')).toBeNull();
    expect(sessionStorage.getItem('clinicrelay.redirectUrl')).toBe('/release');
  });

  it('signs out from the user menu', async () => {
    const { calls } = stubApi();
    const { router } = start('/intake');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Alex Morgan' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/account/login');
    expect(calls.some((c) => c.key === 'POST /api/account/logout')).toBe(true);
  });
});
