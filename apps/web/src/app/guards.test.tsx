import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from './app-test-harness.tsx';
import { RequireAuth, RequireFeatures } from './guards.tsx';
import { consumeRedirect, storeRedirect } from './redirect.ts';
import { appRoutes } from './router.tsx';

let uninstall: (() => void) | undefined;

afterEach(() => {
  uninstall?.();
});

function start(url: string, routes = appRoutes) {
  const app = renderApp(url, routes);
  uninstall = app.uninstall;
  return app;
}

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('route guards and redirect rules (end-user §2)', () => {
  it('sends an unauthenticated user to sign-in and remembers where they were going', async () => {
    const { calls } = stubApi();
    const { router } = start('/release/draft/7?returnUrl=%2Fintake');
    await heading('Sign in');
    expect(router.state.location.pathname).toBe('/account/login');
    expect(consumeRedirect()).toBe('/release/draft/7?returnUrl=%2Fintake');
    expect(calls).toEqual([]);
  });

  it('does not remember the root as a redirect target', async () => {
    stubApi();
    start('/?email=someone@example.org');
    await heading('Sign in');
    expect(consumeRedirect()).toBeNull();
  });

  it('sends a user without the route’s role to /unauthorized', async () => {
    signIn();
    stubApi({ profile: demoProfile({ roles: ['User'] }) });
    const { router } = start('/admin/networks');
    await heading('Unauthorized');
    expect(router.state.location.pathname).toBe('/unauthorized');
    expect(screen.getByText('You are not authorized to view this resource.')).toBeTruthy();
  });

  it('lets a reporting admin into reports but not into networks', async () => {
    signIn();
    stubApi({ profile: demoProfile({ roles: ['SysAdminReporting'], organizationId: null, organizationName: null, organizations: [] }) });
    const { router } = start('/admin/reports');
    await heading('Reports');
    await router.navigate('/admin/networks');
    await heading('Unauthorized');
  });

  it('sends users to the account dashboard when a required feature is off', async () => {
    signIn();
    stubApi({ profile: demoProfile({ roles: ['Administrator'] }), features: ['IntakeCdaViewer'] });
    const routes = [
      {
        element: <RequireAuth />,
        children: [
          {
            path: '/westfax',
            element: (
              <RequireFeatures features={['WestFaxInterface', 'IntakeCdaViewer']}>
                <h1>WestFax</h1>
              </RequireFeatures>
            ),
          },
        ],
      },
      ...appRoutes,
    ];
    const { router } = start('/westfax', routes);
    await heading('Dashboard');
    expect(router.state.location.pathname).toBe('/account/dashboard');
  });

  it('renders a feature-guarded route when all its features are on', async () => {
    signIn();
    stubApi({ features: ['WestFaxInterface'] });
    const routes = [
      {
        element: <RequireAuth />,
        children: [{ path: '/westfax', element: <RequireFeatures features={['WestFaxInterface']}><h1>WestFax</h1></RequireFeatures> }],
      },
    ];
    start('/westfax', routes);
    await heading('WestFax');
  });

  it.each([
    [['Administrator'], '/account/dashboard', 'Dashboard'],
    [['User'], '/intake', 'Intake'],
    [['SysAdmin'], '/admin/dashboard/messaging', 'Messaging dashboard'],
  ] as const)('sends %j from / to %s', async (roles, path, title) => {
    signIn();
    stubApi({ profile: demoProfile({ roles: [...roles] }) });
    const { router } = start('/');
    await heading(title);
    expect(router.state.location.pathname).toBe(path);
  });

  it('sends bare /admin to the role default', async () => {
    signIn();
    stubApi({ profile: demoProfile({ roles: ['SysAdmin'] }) });
    const { router } = start('/admin/');
    await heading('Messaging dashboard');
    expect(router.state.location.pathname).toBe('/admin/dashboard/messaging');
  });

  it('matches routes case-insensitively and with a trailing slash', async () => {
    signIn();
    stubApi();
    start('/Release/');
    await heading('Release');
  });

  it('sends unknown URLs to the stored redirect once, then to the role default', async () => {
    signIn();
    stubApi();
    storeRedirect('/release');
    const { router } = start('/no/such/page');
    await heading('Release');
    await router.navigate('/another/unknown');
    await heading('Intake');
    expect(router.state.location.pathname).toBe('/intake');
  });

  it('keeps /release/new from an organization that is not activated', async () => {
    signIn();
    stubApi({ profile: demoProfile({ orgIsActivated: false }) });
    const { router } = start('/release/new');
    await heading('Release');
    expect(router.state.location.pathname).toBe('/release');
  });

  it("signs the user off on 'Token revoked or expired.' and keeps the path for later", async () => {
    signIn();
    const { calls } = stubApi({ handlers: { 'GET /api/users/profiledata': () => json(401, { message: 'Token revoked or expired.' }) } });
    const { router } = start('/intake');
    await heading('Sign in');
    expect(router.state.location.pathname).toBe('/account/login');
    expect(localStorage.getItem('clinicrelay.refreshToken')).toBeNull();
    expect(consumeRedirect()).toBe('/intake');
    expect(calls.filter((call) => call.key === 'GET /api/users/profiledata')).toHaveLength(1);
  });

  it('toasts and goes to /unauthorized on another 403', async () => {
    signIn();
    stubApi({ handlers: { 'GET /api/features': () => json(403, { message: 'Forbidden for this organization.' }) } });
    const { router } = start('/intake');
    await heading('Unauthorized');
    expect(router.state.location.pathname).toBe('/unauthorized');
    await waitFor(() => expect(screen.getAllByText('You are not authorized to view this resource.')).toHaveLength(2));
  });
});
