import userEvent from '@testing-library/user-event';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const log = {
  referenceId: 'ce963001fe',
  date: '2026-03-01T10:00:00.000Z',
  message: 'BlobError: The file of blob 9f8172ef is missing.',
  statusCode: 500,
  method: 'GET',
  route: '/api/downloads/:id/download',
  requestId: 'req-1',
  userId: null,
  organizationId: null,
  stack: '    at get (blob-store.ts:75:44)',
};

function start() {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: { 'GET /api/admin/securelogs/ce963001fe': () => json(200, log) },
  });
  uninstall = renderApp('/admin/securelogs').uninstall;
  return api;
}

describe('Secure logs (back office /admin/securelogs)', { timeout: 30_000 }, () => {
  it("says 'No Log to Display' until an id is typed, then looks it up once typing stops", async () => {
    const api = start();
    expect(await screen.findByRole('heading', { name: 'Secure logs' })).toBeTruthy();
    expect(screen.getByText('No Log to Display')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Reference id' }), 'CE963001FE');
    expect(await screen.findByText('GET /api/downloads/:id/download → 500')).toBeTruthy();
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' }).value).toContain('BlobError: The file of blob 9f8172ef is missing.');
    // One call for the whole id: the 300 ms debounce let no partial id through.
    expect(api.calls.filter((c) => c.key.startsWith('GET /api/admin/securelogs/')).map((c) => c.key)).toEqual(['GET /api/admin/securelogs/ce963001fe']);
  });

  it('says when no log has the id', async () => {
    start();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Reference id' }), '0000000000');
    await waitFor(() => expect(screen.getByText('The resource you are looking for was not found.')).toBeTruthy());
  });
});
