import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { Profile, UserPreferences } from '@clinicrelay/contracts/session.ts';
import { saveTokens } from '../api/tokens.ts';
import { installAuthFailureHandler } from './auth-failure.ts';
import { AppProviders } from './providers.tsx';
import { createQueryClient } from './query-client.ts';
import { appRoutes } from './router.tsx';

// Test-only helpers: the real routes, guards and providers over a memory router and a stubbed fetch.

export function demoProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    userId: 'u-1',
    userName: 'alex@lakeside.example',
    fullName: 'Alex Morgan',
    organizationId: 'org-lakeside',
    organizationName: 'Lakeside Clinic',
    organizations: [{ id: 'org-lakeside', subDomain: 'lakeside', name: 'Lakeside Clinic' }],
    domain: 'clinicrelay.example',
    host: 'lakeside.clinicrelay.example',
    roles: ['User'],
    uiResources: {},
    administerOfNetworkObjectId: null,
    isNetworkAdmin: false,
    networkFeatures: [],
    authStrategy: 'password',
    isAdmin: false,
    orgIsAcceptedEULA: true,
    orgIsIdProofed: true,
    idProofedAttemptDate: null,
    orgIsActivated: true,
    orgIsCancelled: false,
    orgIsInGracePeriod: false,
    orgGracePeriodEndDate: null,
    subscriptionReference: null,
    resellerBypassTos: false,
    intercomAppId: null,
    intercomUserHash: null,
    twoFactorEnrolmentRequired: false,
    ...overrides,
  };
}

export const defaultPreferences: UserPreferences = {
  emailNewMessages: true,
  emailUnprocessedMessages: true,
  emailSystemNotifications: true,
  emailUnassignedMessages: false,
  emailFailedMessagesDigest: false,
  sidebarCollapsed: false,
  hideActivationDelayDialog: false,
};

export const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

type Handler = (body: unknown) => Response | Promise<Response>;

export interface ApiStubOptions {
  profile?: Profile;
  features?: string[];
  preferences?: UserPreferences;
  /** Extra or overriding answers keyed "METHOD /path". */
  handlers?: Record<string, Handler>;
}

/** Stubs global fetch with a tiny server that answers the session calls; returns the recorded calls. */
export function stubApi(options: ApiStubOptions = {}) {
  const calls: { key: string; body: unknown }[] = [];
  const handlers: Record<string, Handler> = {
    'GET /api/users/profiledata': () => json(200, options.profile ?? demoProfile()),
    'GET /api/features': () => json(200, { enabled: options.features ?? [] }),
    'GET /api/users/preferences': () => json(200, options.preferences ?? defaultPreferences),
    'PUT /api/users/preferences': (body) => json(200, { ...(options.preferences ?? defaultPreferences), ...(body as object) }),
    'POST /api/account/logout': () => json(200, { ok: true }),
    ...options.handlers,
  };
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${input instanceof Request ? input.url : String(input)}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ key, body });
    const handler = handlers[key];
    return handler ? handler(body) : json(404, { message: 'The resource you are looking for was not found.' });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, fetchStub };
}

// A new sign-in: nothing a previous test's session left in the browser's storage carries over.
export function signIn(): void {
  localStorage.clear();
  saveTokens({ accessToken: 'access-1', tokenType: 'Bearer', expiresIn: 900, refreshToken: 'refresh-1' });
}

export function renderApp(initialUrl: string, routes: RouteObject[] = appRoutes) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [initialUrl] });
  const uninstall = installAuthFailureHandler(router, queryClient);
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, queryClient, uninstall, ...view };
}
