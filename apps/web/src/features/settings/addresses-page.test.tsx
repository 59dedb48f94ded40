import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { documentSourceMessages } from '@clinicrelay/contracts/document-sources.ts';
import { json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { adminProfile, DIRECT, FAX, ORG_ID, source, sourcesPath } from './settings-test-fixtures.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const PROVISIONING = source('s-new', 'records@lakeside.direct.example.org', { status: 0, statusName: 'Provisioning' });

function start(items: unknown[] = [FAX, DIRECT]) {
  signIn();
  let listed = items;
  const api = stubApi({
    profile: adminProfile(),
    handlers: {
      [`GET ${sourcesPath(10)}`]: () => json(200, { items: listed, totalCount: listed.length }),
      'POST /api/admin/documentsources': (body) => {
        const fullAddress = (body as { fullAddress: string }).fullAddress;
        if (fullAddress.startsWith('taken')) return json(400, { message: documentSourceMessages.addressTaken, modelState: { fullAddress: [documentSourceMessages.addressTaken] } });
        listed = [...listed, PROVISIONING];
        return json(200, PROVISIONING);
      },
      'POST /api/admin/documentsources/faxnumber': () => {
        const ordered = source('s-sandbox', '5035550100');
        listed = [...listed, ordered];
        return json(200, { ...ordered, provider: 'sandbox', notice: documentSourceMessages.sandboxFaxAssigned('503-555-0100') });
      },
      [`PUT /api/admin/documentsources/${FAX.id}/global`]: (body) => {
        const changed = { ...FAX, isGlobal: (body as { isGlobal: boolean }).isGlobal };
        listed = listed.map((s) => ((s as { id: string }).id === FAX.id ? changed : s));
        return json(200, changed);
      },
      [`DELETE /api/admin/documentsources?id=${FAX.id}`]: () => {
        listed = listed.map((s) => (s === FAX ? { ...FAX, status: 4, statusName: 'Deleted' } : s));
        return json(200, { ok: true });
      },
    },
  });
  uninstall = renderApp('/settings/addresses').uninstall;
  return api;
}

describe('Addresses and fax numbers (/settings/addresses)', () => {
  it("lists the organization's addresses with their status and who may send from each", async () => {
    start();
    expect(await screen.findByRole('heading', { name: 'Addresses and fax numbers' })).toBeTruthy();
    const fax = (await screen.findByText('503-555-0101')).closest('tr')!;
    expect(within(fax).getByText('Fax number')).toBeTruthy();
    expect(within(fax).getByText('Activated')).toBeTruthy();
    expect(within(fax).getByText('Morgan Multi')).toBeTruthy();
    expect(within(screen.getByText('intake@lakeside.direct.example.org').closest('tr')!).getByText('Leo Shore')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Addresses and fax numbers' })).toBeTruthy();
  });

  it('makes an address every user’s: the switch puts it, and the row no longer lists single senders', async () => {
    const { calls } = start();
    const toggle = await screen.findByRole<HTMLInputElement>('switch', { name: 'Every user may send from 503-555-0101' });
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    expect(await screen.findByText(documentSourceMessages.madeGlobal)).toBeTruthy();
    expect(calls.find((c) => c.key === `PUT /api/admin/documentsources/${FAX.id}/global`)?.body).toEqual({ isGlobal: true });
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Every user may send from 503-555-0101' }).checked).toBe(true));
    expect(screen.queryByText('Morgan Multi')).toBeNull();
  });

  it('says so when there are none', async () => {
    start([]);
    expect(await screen.findByText('Your organization has no Direct addresses or fax numbers yet.')).toBeTruthy();
  });

  it('requests a Direct address on the organization’s domain; it shows as Provisioning', async () => {
    const { calls } = start();
    fireEvent.click(await screen.findByRole('button', { name: 'Request Direct address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request Direct address' });
    expect(within(dialog).getByText('name@lakeside.…')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Direct address/ }), { target: { value: 'taken@lakeside.direct.example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request' }));
    expect(await within(dialog).findByText(documentSourceMessages.addressTaken)).toBeTruthy();

    fireEvent.change(within(dialog).getByRole('textbox', { name: /Direct address/ }), { target: { value: 'records@lakeside.direct.example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request' }));
    expect(await screen.findByText(documentSourceMessages.directRequested)).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /api/admin/documentsources').at(-1)?.body).toEqual({ organizationId: ORG_ID, type: 'DirectMessaging', fullAddress: 'records@lakeside.direct.example.org' });
    expect(within((await screen.findByText('records@lakeside.direct.example.org')).closest('tr')!).getByText('Provisioning')).toBeTruthy();
  });

  it('requests a fax number from the sandbox fax provider and says it is the sandbox', async () => {
    const { calls } = start();
    fireEvent.click(await screen.findByRole('button', { name: 'Request fax number' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request fax number' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request' }));
    expect(await screen.findByText(/^Sandbox fax provider: 503-555-0100 was assigned/)).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/admin/documentsources/faxnumber')?.body).toEqual({ organizationId: ORG_ID });
    expect(await screen.findByText('503-555-0100')).toBeTruthy();
  });

  it('removes an address after confirmation', async () => {
    start();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove 503-555-0101' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove address' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(documentSourceMessages.removed)).toBeTruthy();
    await waitFor(() => expect(within(screen.getByText('503-555-0101').closest('tr')!).getByText('Deleted')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Remove 503-555-0101' })).toBeNull();
  });
});
