import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveTokens } from '../api/tokens.ts';
import { json, renderApp, signIn, stubApi } from './app-test-harness.tsx';
import { consumeRedirect } from './redirect.ts';

let uninstall: (() => void) | undefined;

afterEach(() => {
  uninstall?.();
});

const expired = { message: 'Token revoked or expired.' };

// The server ends a session after SESSION_IDLE_MINUTES without a request or SESSION_MAX_HOURS in all.
describe('a session the server ended (automatic logoff)', () => {
  it('shows the session-expired notice and goes to sign-in when a call gets 401, keeping the path', async () => {
    signIn();
    stubApi({ handlers: { 'GET /api/users/profiledata': () => json(401, expired) } });
    const app = renderApp('/release?tab=sent');
    uninstall = app.uninstall;
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(app.router.state.location.pathname).toBe('/account/login');
    expect(await screen.findByText('Your session has expired. Please sign in again.')).toBeTruthy();
    expect(consumeRedirect()).toBe('/release?tab=sent');
  });

  it('does the same when the token renewal is refused after the idle time', async () => {
    // An access token past its 15 minutes: the client renews first, and the server refuses.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    saveTokens({ accessToken: 'old', tokenType: 'Bearer', expiresIn: 900, refreshToken: 'refresh-1' }, Date.now() - 40 * 60_000);
    const { calls } = stubApi({
      handlers: {
        'POST /api/account/refresh': () => json(401, expired),
        'GET /api/users/profiledata': () => json(401, expired),
      },
    });
    const app = renderApp('/intake');
    uninstall = app.uninstall;
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await waitFor(() => expect(screen.getAllByText('Your session has expired. Please sign in again.')).toHaveLength(1));
    expect(calls[0]).toEqual({ key: 'POST /api/account/refresh', body: { refreshToken: 'refresh-1' } });
    expect(localStorage.getItem('clinicrelay.refreshToken')).toBeNull();
    expect(consumeRedirect()).toBe('/intake');
  });

  it("keeps a cancelled organization's user on the page: that 403 is no missing role", async () => {
    signIn();
    const { calls } = stubApi({ handlers: { 'GET /api/documentsources': () => json(403, { message: 'Organization is currently canceled' }) } });
    const app = renderApp('/intake');
    uninstall = app.uninstall;
    await screen.findByRole('heading', { level: 1, name: 'Intake' });
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('GET /api/documentsources'));
    expect(app.router.state.location.pathname).toBe('/intake');
    expect(screen.queryByText('You are not authorized to view this resource.')).toBeNull();
  });
});
