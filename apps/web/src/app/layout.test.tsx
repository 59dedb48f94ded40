import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useBlocker, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from './app-test-harness.tsx';
import { RequireAuth } from './guards.tsx';
import { AppLayout } from './layout.tsx';
import { useSession } from './session-context.ts';

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
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Intake', 'Release', 'Notifications', 'Downloads']);
    expect(screen.getByText(`© ${new Date().getFullYear()} ClinicRelay`)).toBeTruthy();
  });

  it('saves the collapsed sidebar in the user preferences', async () => {
    const { calls } = stubApi();
    start('/intake');
    const user = userEvent.setup();
    const toggle = await screen.findByRole('button', { name: 'Collapse sidebar' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // The desktop toggle always shows the three lines, never the X of a close button.
    expect(toggle.querySelector('[data-opened]')).toBeNull();
    await user.click(toggle);
    await waitFor(() => expect(calls.find((c) => c.key === 'PUT /api/users/preferences')?.body).toEqual({ sidebarCollapsed: true }));
    const expand = await screen.findByRole('button', { name: 'Expand sidebar' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    expect(expand.querySelector('[data-opened]')).toBeNull();
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
    // The tab is named after the page.
    await waitFor(() => expect(document.title).toBe('Sign in · ClinicRelay'));
  });
});

// A page with unsaved work that asks before the router leaves it, as the compose page does (useBlocker).
function UnsavedWorkPage() {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname);
  return (
    <>
      <h1>New message</h1>
      {blocker.state === 'blocked' && (
        <div role="dialog" aria-label="Save this draft?">
          <button type="button" onClick={() => blocker.reset()}>
            Cancel
          </button>
          <button type="button" onClick={() => blocker.proceed()}>
            Discard
          </button>
        </div>
      )}
    </>
  );
}

function OrganizationPage({ name }: { name: string }) {
  const { profile } = useSession();
  return <h1>{`${name} of ${profile.organizationName ?? ''}`}</h1>;
}

const switchRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { path: 'intake', element: <OrganizationPage name="Intake" /> },
          { path: 'release/new', element: <UnsavedWorkPage /> },
          { path: 'release/:id', element: <OrganizationPage name="Message" /> },
        ],
      },
    ],
  },
];

describe('switching organization (end-user §4 "Organization switching")', () => {
  const riverview = { ...twoOrganizations, organizationId: 'org-riverview', organizationName: 'Riverview Health' };

  async function chooseOrganization(name: string) {
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Organization' }));
    await user.click(await screen.findByRole('option', { name }));
  }

  it('asks a page with unsaved work first: Cancel keeps the page and the organization', async () => {
    const { calls } = stubApi({ profile: twoOrganizations, handlers: { 'POST /api/account/change': () => json(200, riverview) } });
    const app = renderApp('/release/new', switchRoutes);
    uninstall = app.uninstall;
    await screen.findByRole('heading', { level: 1, name: 'New message' });

    await chooseOrganization('Riverview Health');
    const prompt = await screen.findByRole('dialog', { name: 'Save this draft?' });
    await userEvent.setup().click(within(prompt).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Save this draft?' })).toBeNull());
    expect(screen.getByRole('heading', { level: 1, name: 'New message' })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/release/new');
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Organization' }).value).toBe('Lakeside Clinic');
    expect(calls.some((c) => c.key === 'POST /api/account/change')).toBe(false);
  });

  it('switches once the page let go, and lands in the new organization\'s Intake', async () => {
    const { calls } = stubApi({ profile: twoOrganizations, handlers: { 'POST /api/account/change': () => json(200, riverview) } });
    const app = renderApp('/release/new', switchRoutes);
    uninstall = app.uninstall;
    await screen.findByRole('heading', { level: 1, name: 'New message' });

    await chooseOrganization('Riverview Health');
    const prompt = await screen.findByRole('dialog', { name: 'Save this draft?' });
    expect(calls.some((c) => c.key === 'POST /api/account/change')).toBe(false);
    await userEvent.setup().click(within(prompt).getByRole('button', { name: 'Discard' }));

    await screen.findByRole('heading', { level: 1, name: 'Intake of Riverview Health' });
    expect(app.router.state.location.pathname).toBe('/intake');
    expect(calls.filter((c) => c.key === 'POST /api/account/change').map((c) => c.body)).toEqual([{ orgId: 'org-riverview' }]);
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Organization' }).value).toBe('Riverview Health');
  });

  it('leaves a message of the old organization for the new organization\'s Intake', async () => {
    stubApi({ profile: twoOrganizations, handlers: { 'POST /api/account/change': () => json(200, riverview) } });
    const app = renderApp('/release/0b8e1f0e-5a57-4a53-8d3c-4f3f6f2f9a10', switchRoutes);
    uninstall = app.uninstall;
    await screen.findByRole('heading', { level: 1, name: 'Message of Lakeside Clinic' });

    await chooseOrganization('Riverview Health');

    await screen.findByRole('heading', { level: 1, name: 'Intake of Riverview Health' });
    expect(app.router.state.location.pathname).toBe('/intake');
    // The switch is used up: this history entry no longer asks for one.
    await waitFor(() => expect(app.router.state.location.state).toBeNull());
  });
});
