import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { partnerMessages } from '@clinicrelay/contracts/partners.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const ID = '5b7a4c1e-0000-4000-8000-000000000001';
const acme = { id: ID, name: 'Acme Health', url: null, logo: `/api/partners/${ID}/logo?v=abc`, logoFileName: 'acme.png', createdBy: null, createDate: '2026-01-01T00:00:00.000Z', modifiedBy: null, modifiedDate: '2026-01-01T00:00:00.000Z' };

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start() {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      'GET /api/partners?pageNumber=1&pageSize=10&sortDir=asc': () => json(200, { items: [acme], totalCount: 1 }),
      'GET /api/partners?pageNumber=1&pageSize=10&sortDir=asc&col=name': () => json(200, { items: [acme], totalCount: 1 }),
      'PUT /api/partners': () => json(200, acme),
      [`DELETE /api/partners/${ID}`]: () => json(200, { ok: true }),
    },
  });
  uninstall = renderApp('/admin/partners').uninstall;
  return api;
}

describe('Partners', { timeout: 30_000 }, () => {
  it('lists partners with their logo, creates one with JSON and replaces a logo with the multipart form', async () => {
    const { calls, fetchStub } = start();
    const user = userEvent.setup({ delay: null });
    expect((await screen.findByRole('img', { name: 'Acme Health logo' })).getAttribute('src')).toBe(acme.logo);

    await user.click(screen.getByRole('button', { name: 'Add partner' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add partner' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Name is required.')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Beta Labs');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'PUT /api/partners')?.body).toEqual({ name: 'Beta Labs' }));
    expect(await screen.findByText(partnerMessages.saved)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Edit Acme Health' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit partner' });
    expect(within(dialog).getByText('Current logo')).toBeTruthy();
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File([new Uint8Array([0x47, 0x49, 0x46])], 'new.gif', { type: 'image/gif' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit partner' })).toBeNull());
    const multipart = fetchStub.mock.calls.map(([, init]) => init?.body).find((body): body is FormData => body instanceof FormData)!;
    expect(JSON.parse(multipart.get('partner') as string)).toEqual({ id: ID, name: 'Acme Health' });
    expect((multipart.get('file') as File).name).toBe('new.gif');
  });

  it('asks No or Yes before deleting', async () => {
    const { calls } = start();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Delete Acme Health' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete partner' });
    expect(within(dialog).getByText('Are you sure you want to delete Acme Health?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'No' }));
    expect(calls.some((c) => c.key.startsWith('DELETE'))).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete Acme Health' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete partner' })).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText(partnerMessages.deleted)).toBeTruthy();
    expect(calls.some((c) => c.key === `DELETE /api/partners/${ID}`)).toBe(true);
  });
});
