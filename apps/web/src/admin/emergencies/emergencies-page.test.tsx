import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { emergencyMessages as text } from '@clinicrelay/contracts/emergencies.ts';
import { forgetEmergencyServiceUrl } from '../../api/emergencies.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const SERVICE = 'http://svc.test:8090';
const LIST = 'GET /api/admin/emergencies?pageNumber=1&pageSize=10&sortDir=asc';
const ORG_LIST = `GET ${SERVICE}/api/emergencies/organizations?pageNumber=1&pageSize=10&sortDir=asc`;
const SEARCH = `POST ${SERVICE}/api/organization/admin/_search`;
const LONG_NAME = 'Pacific Northwest Wildfire Smoke Response and Recovery';
const active = { id: '00000000-0000-4000-8000-000000000001', name: LONG_NAME, disabledDate: null, isDisabled: false, organizations: [] };
const pending = { id: '00000000-0000-4000-8000-000000000002', name: 'Winter Storm', disabledDate: '2099-01-15', isDisabled: false, organizations: [] };
const disabled = { id: '00000000-0000-4000-8000-000000000003', name: 'COVID-19', disabledDate: '2023-05-11', isDisabled: true, organizations: [{ name: 'Lakeside', oid: '1.2.3' }] };
const CASCADE = { name: 'Cascade Regional Hospital', oid: '2.16.840.1.113883.3.9001.10' };

let uninstall: (() => void) | undefined;
afterEach(() => {
  uninstall?.();
  forgetEmergencyServiceUrl();
});

function start(url: string, extra: Record<string, (body: unknown) => Response> = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      [LIST]: () => json(200, { items: [active, pending, disabled], totalCount: 3 }),
      'GET /api/admin/emergencies/service': () => json(200, { baseUrl: `${SERVICE}/` }),
      [ORG_LIST]: () => json(200, { items: [CASCADE], totalCount: 1 }),
      [SEARCH]: (body) => json(200, (body as { orgId: string }).orgId.toLowerCase().startsWith('cas') ? [CASCADE] : []),
      ...extra,
    },
  });
  uninstall = renderApp(url).uninstall;
  return api;
}

const rowOf = async (name: string) => (await screen.findByRole('button', { name: `Edit ${name}` })).closest('tr')!;

describe('Emergencies (back office /admin/emergencies)', { timeout: 30_000 }, () => {
  it('lists name (cut at 30 characters), disabled date MM/dd/yy and status, with Disable or Enable per row', async () => {
    const { calls } = start('/admin/emergencies', {
      [`PUT /api/admin/emergencies/${pending.id}/disable`]: () => json(200, { ...pending, disabledDate: '2026-11-29', isDisabled: true }),
      [`PUT /api/admin/emergencies/${disabled.id}/enable`]: () => json(500, { message: 'boom' }),
    });
    // The first test loads the page's lazy chunk.
    expect(await screen.findByRole('heading', { name: 'Emergencies', level: 1 }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Emergencies', selected: true })).toBeTruthy();
    const first = await rowOf(LONG_NAME);
    expect(within(first).getByText(`${LONG_NAME.slice(0, 30)}…`)).toBeTruthy();
    expect(within(first).getByText('Active')).toBeTruthy();
    const second = await rowOf('Winter Storm');
    expect(within(second).getByText('01/15/99')).toBeTruthy();
    expect(within(second).getByText('Pending disable')).toBeTruthy();
    const third = await rowOf('COVID-19');
    expect(within(third).getByText('05/11/23')).toBeTruthy();
    expect(within(third).getByText('Disabled')).toBeTruthy();

    const user = userEvent.setup({ delay: null });
    // A pending disable can still be disabled now.
    await user.click(within(second).getByRole('button', { name: 'Disable Winter Storm' }));
    expect(await screen.findByText(text.disabled)).toBeTruthy();
    expect(calls.some((c) => c.key === `PUT /api/admin/emergencies/${pending.id}/disable`)).toBe(true);
    await user.click(within(third).getByRole('button', { name: 'Enable COVID-19' }));
    expect(await screen.findByText(text.enableFailed)).toBeTruthy();
  });

  it("says 'Error loading emergencies.' when the list fails", async () => {
    start('/admin/emergencies', { [LIST]: () => json(500, { message: 'An error has occurred.' }) });
    // Retried twice first, as every failed server call.
    expect(await screen.findByText(text.loadFailed, {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('adds an emergency: name required, the typed date understood, organizations chosen from the search', async () => {
    const { calls } = start('/admin/emergencies', { 'POST /api/admin/emergencies': (body) => json(200, { ...active, ...(body as object), id: '00000000-0000-4000-8000-000000000009' }) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add emergency' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add emergency' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Disabled date' }), '2/30/27');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.invalidFields)).toBeTruthy();
    expect(within(dialog).getByText('Name is required.')).toBeTruthy();
    expect(within(dialog).getByText(text.invalidDate)).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Flood');
    const date = within(dialog).getByRole('textbox', { name: 'Disabled date' });
    await user.clear(date);
    await user.type(date, '123199');
    await user.tab();
    expect((date as HTMLInputElement).value).toBe('12/31/2099');
    expect(within(dialog).getByText('Pending disable')).toBeTruthy();

    const search = within(dialog).getByRole('combobox', { name: 'Organizations' });
    await user.type(search, 'zz');
    expect(await screen.findByText(text.noOrganizationsFound, {}, { timeout: 3000 })).toBeTruthy();
    await user.clear(search);
    await user.type(search, 'cas');
    await user.click(await screen.findByRole('option', { name: `${CASCADE.name} (${CASCADE.oid})` }, { timeout: 3000 }));
    expect(within(dialog).getByRole('list', { name: 'Chosen organizations' }).textContent).toContain(CASCADE.name);

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/admin/emergencies')?.body).toEqual({ name: 'Flood', disabledDate: '12/31/2099', organizations: [CASCADE] }));
    expect(await screen.findByText(text.saved)).toBeTruthy();
  });

  it("says 'Error retrieving emergency' when the emergency to edit cannot be read", async () => {
    start('/admin/emergencies', { [`GET /api/admin/emergencies/${pending.id}`]: () => json(500, { message: 'An error has occurred.' }) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Edit Winter Storm' }));
    expect(await screen.findByText(text.retrieveFailed)).toBeTruthy();
  });

  it('edits an emergency read again from the server, its date shown as typed', async () => {
    const { calls } = start('/admin/emergencies', {
      [`GET /api/admin/emergencies/${disabled.id}`]: () => json(200, disabled),
      'PUT /api/admin/emergencies': (body) => json(200, { ...disabled, ...(body as object) }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Edit COVID-19' }));
    // The form opens once the emergency is read.
    await screen.findByRole('textbox', { name: 'Disabled date' });
    const dialog = screen.getByRole('dialog', { name: 'Edit emergency' });
    expect(within(dialog).getByRole<HTMLInputElement>('textbox', { name: 'Disabled date' }).value).toBe('05/11/2023');
    await user.click(within(dialog).getByRole('button', { name: 'Remove Lakeside' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'PUT /api/admin/emergencies')?.body).toEqual({ id: disabled.id, name: 'COVID-19', disabledDate: '05/11/2023', organizations: [] }));
  });
});

describe('Emergency organizations (the Organizations tab, on the separate service)', { timeout: 30_000 }, () => {
  it('lists the service’s organizations and adds one picked from the search', async () => {
    const { calls } = start('/admin/emergencies?tab=organizations', { [`PUT ${SERVICE}/api/emergencies/organizations`]: (body) => json(200, body) });
    expect(await screen.findByRole('tab', { name: 'Organizations', selected: true })).toBeTruthy();
    expect(await screen.findByText(CASCADE.oid)).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Add organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add organization' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.invalidFields)).toBeTruthy();
    await user.type(within(dialog).getByRole('combobox', { name: 'Find organization' }), 'cascade');
    await user.click(await screen.findByRole('option', { name: `${CASCADE.name} (${CASCADE.oid})` }, { timeout: 3000 }));
    expect(within(dialog).getByRole<HTMLInputElement>('textbox', { name: 'OID' }).value).toBe(CASCADE.oid);
    await user.clear(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Cascade Regional');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.key === `PUT ${SERVICE}/api/emergencies/organizations`)?.body).toEqual({ name: 'Cascade Regional', oid: CASCADE.oid }));
    expect(await screen.findByText(text.organizationSaved)).toBeTruthy();
  });

  it("says 'Error loading organizations.' and 'Error searching for organization' when the service fails", async () => {
    start('/admin/emergencies?tab=organizations', { [ORG_LIST]: () => json(503, { message: 'down' }), [SEARCH]: () => json(500, { message: 'down' }) });
    expect(await screen.findByText(text.organizationsLoadFailed, {}, { timeout: 10_000 })).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: 'Add organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add organization' });
    await user.type(within(dialog).getByRole('combobox', { name: 'Find organization' }), 'cascade');
    expect(await screen.findByText(text.organizationSearchFailed, {}, { timeout: 3000 })).toBeTruthy();
  });
});
