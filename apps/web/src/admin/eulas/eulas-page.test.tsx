import userEvent from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { eulaAdminMessages as text } from '@clinicrelay/contracts/eulas.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const ACTIVE_ID = '7d1f0a3e-0000-4000-8000-000000000001';
const DRAFT_ID = '7d1f0a3e-0000-4000-8000-000000000002';
const OLD_ID = '7d1f0a3e-0000-4000-8000-000000000003';
const base = { brand: { id: 'clinicrelay', name: 'ClinicRelay' }, html: null, fileName: 'terms.html', activatedAt: null, createDate: '2026-03-01T10:00:00.000Z' };
const active = { ...base, id: ACTIVE_ID, version: '2.0', type: 'EULA', active: true, totalUsers: 8, activatedAt: '2026-03-02T10:00:00.000Z' };
const draft = { ...base, id: DRAFT_ID, version: '3.0', type: 'Privacy', active: false, totalUsers: 0 };
const accepted = { ...base, id: OLD_ID, version: '1.0', type: 'EULA', active: false, totalUsers: 3 };
const LIST = 'GET /api/admin/eulas?pageNumber=1&pageSize=10&sortDir=asc';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(extra: Record<string, (body: unknown) => Response> = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: {
      [LIST]: () => json(200, { items: [active, draft, accepted], totalCount: 3 }),
      'GET /api/admin/brands?pageSize=100': () => json(200, { items: [{ id: 'clinicrelay', name: 'ClinicRelay', settings: {} }], totalCount: 1 }),
      'POST /api/admin/eulas': () => json(200, { ...draft, version: '4.0' }),
      [`GET /api/admin/eulas/${ACTIVE_ID}`]: () => json(200, { ...active, html: '<h1>ClinicRelay Terms</h1><p>Be kind.</p>' }),
      [`POST /api/admin/eulas/${DRAFT_ID}/activate`]: () => json(200, { ...draft, active: true }),
      [`DELETE /api/admin/eulas/${DRAFT_ID}`]: () => json(200, { ok: true }),
      ...extra,
    },
  });
  uninstall = renderApp('/admin/eulas').uninstall;
  return api;
}

const rowOf = async (name: string) => (await screen.findByRole('button', { name: `View ${name}` })).closest('tr')!;

describe('Terms of service (back office /admin/eulas)', { timeout: 30_000 }, () => {
  it('lists brand, version, type, active and total users; Activate and Delete only where the rules allow', async () => {
    start();
    expect(await screen.findByRole('heading', { name: 'Terms of service' })).toBeTruthy();
    for (const header of ['Brand', 'Version', 'Type', 'Active', 'Total users']) expect(screen.getByRole('columnheader', { name: new RegExp(header) })).toBeTruthy();
    const activeRow = await rowOf('ClinicRelay EULA 2.0');
    for (const cell of ['ClinicRelay', '2.0', 'EULA', 'Active', '8']) expect(within(activeRow).getByText(cell)).toBeTruthy();
    // Active: no Activate, no Delete.
    expect(within(activeRow).queryByRole('button', { name: /^Activate/ })).toBeNull();
    expect(within(activeRow).queryByRole('button', { name: /^Delete/ })).toBeNull();
    // Accepted by users: Activate (again) yes, Delete no.
    const acceptedRow = await rowOf('ClinicRelay EULA 1.0');
    expect(within(acceptedRow).getByRole('button', { name: 'Activate ClinicRelay EULA 1.0' })).toBeTruthy();
    expect(within(acceptedRow).queryByRole('button', { name: /^Delete/ })).toBeNull();
    const draftRow = await rowOf('ClinicRelay Privacy 3.0');
    expect(within(draftRow).getByText('Inactive')).toBeTruthy();
    expect(within(draftRow).getByRole('button', { name: 'Delete ClinicRelay Privacy 3.0' })).toBeTruthy();
    // Never edited: a change is a new version.
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
  });

  it('creates a document: every field required, HTML files only', async () => {
    const { fetchStub } = start();
    const user = userEvent.setup({ delay: null, applyAccept: false });
    await user.click(await screen.findByRole('button', { name: 'Add terms document' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add terms document' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.fileRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.typeRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.brandRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.versionRequired)).toBeTruthy();

    const fileInput = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(fileInput.accept).toBe('.html,.htm,text/html');
    await user.upload(fileInput, new File(['%PDF'], 'terms.pdf', { type: 'application/pdf' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Version' }), 'v4');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.htmlRequired)).toBeTruthy();
    expect(within(dialog).getByText(text.versionInvalid)).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Clear file' }));
    await user.upload(fileInput, new File(['<h1>Terms</h1>'], 'terms-4.0.html', { type: 'text/html' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Privacy' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Brand' }));
    await user.click(await screen.findByRole('option', { name: 'ClinicRelay' }));
    const version = within(dialog).getByRole('textbox', { name: 'Version' });
    await user.clear(version);
    await user.type(version, '4.0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add terms document' })).toBeNull());
    const form = fetchStub.mock.calls.map(([, init]) => init?.body).find((body): body is FormData => body instanceof FormData)!;
    expect(Object.fromEntries([...form.entries()].filter(([name]) => name !== 'file'))).toEqual({ type: 'Privacy', brandId: 'clinicrelay', version: '4.0' });
    expect((form.get('file') as File).name).toBe('terms-4.0.html');
    expect(await screen.findByText(text.created)).toBeTruthy();
  });

  it('toasts "not created" and shows the server reason at its field', async () => {
    start({ 'POST /api/admin/eulas': () => json(400, { message: text.versionTaken, modelState: { version: [text.versionTaken] } }) });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Add terms document' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add terms document' });
    await user.upload(dialog.querySelector<HTMLInputElement>('input[type="file"]')!, new File(['<p>x</p>'], 'terms.html', { type: 'text/html' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'EULA' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Brand' }));
    await user.click(await screen.findByRole('option', { name: 'ClinicRelay' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Version' }), '2.0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(text.versionTaken)).toBeTruthy();
    expect(await screen.findByText(text.notCreated)).toBeTruthy();
  });

  it('views the sanitized document in a sandboxed frame that cannot run script', async () => {
    start();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'View ClinicRelay EULA 2.0' }));
    const dialog = await screen.findByRole('dialog', { name: 'Terms document: ClinicRelay EULA 2.0' });
    const frame = await within(dialog).findByTitle('Terms document ClinicRelay EULA 2.0');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    expect(frame.getAttribute('sandbox')).not.toMatch(/allow-scripts|allow-same-origin/);
    expect(frame.getAttribute('srcdoc')).toContain('<h1>ClinicRelay Terms</h1><p>Be kind.</p>');
    expect(within(dialog).getByText(/terms\.html · Active · 8 accepted/)).toBeTruthy();
  });

  it('activates after the confirmation that every user must accept again, and deletes after confirming', async () => {
    const { calls } = start();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Activate ClinicRelay Privacy 3.0' }));
    const confirm = await screen.findByRole('dialog', { name: 'Activate terms document' });
    expect(within(confirm).getByText(text.activatePrivacyConfirm)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText(text.activated)).toBeTruthy();
    expect(calls.some((c) => c.key === `POST /api/admin/eulas/${DRAFT_ID}/activate`)).toBe(true);

    await user.click(await screen.findByRole('button', { name: 'Delete ClinicRelay Privacy 3.0' }));
    const del = await screen.findByRole('dialog', { name: 'Delete terms document' });
    await user.click(within(del).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(text.deleted)).toBeTruthy();
    expect(calls.some((c) => c.key === `DELETE /api/admin/eulas/${DRAFT_ID}`)).toBe(true);
  });

  it('warns that activating a EULA asks every user to accept it again', async () => {
    start();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Activate ClinicRelay EULA 1.0' }));
    const confirm = await screen.findByRole('dialog', { name: 'Activate terms document' });
    expect(within(confirm).getByText('Activate EULA version 1.0 for ClinicRelay?')).toBeTruthy();
    expect(within(confirm).getByText(text.activateConfirm)).toBeTruthy();
  });

  it('toasts "not activated" and "not deleted" with the server reason in the confirmation', async () => {
    start({
      [`POST /api/admin/eulas/${DRAFT_ID}/activate`]: () => json(404, { message: 'The resource you are looking for was not found.' }),
      [`DELETE /api/admin/eulas/${DRAFT_ID}`]: () => json(409, { message: text.inUse }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Activate ClinicRelay Privacy 3.0' }));
    const confirm = await screen.findByRole('dialog', { name: 'Activate terms document' });
    await user.click(within(confirm).getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText(text.notActivated)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));

    await user.click(await screen.findByRole('button', { name: 'Delete ClinicRelay Privacy 3.0' }));
    const del = await screen.findByRole('dialog', { name: 'Delete terms document' });
    await user.click(within(del).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(text.notDeleted)).toBeTruthy();
    expect(await within(del).findByText(text.inUse)).toBeTruthy();
  });
});
