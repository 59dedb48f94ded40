import userEvent from '@testing-library/user-event';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { directoryEntryMessages as text } from '@clinicrelay/contracts/directory-entries.ts';
import { demoProfile, json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';

const ID = '6c0c2a10-0000-4000-8000-000000000001';
const entry = {
  id: ID,
  tenantId: 'platform',
  entryType: 'Organization',
  isSystemGenerated: true,
  organizationName: 'Cascade Wound Care',
  directAddress: 'intake@direct.cascade.example.net',
  createdAt: '2026-11-02T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
};
const LIST = 'GET /api/kno2directory?pageNumber=1&pageSize=10&sortDir=asc';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

function start(extra: Record<string, (body: unknown) => Response> = {}) {
  signIn();
  const api = stubApi({
    profile: demoProfile({ roles: ['SysAdmin'], organizationId: null, organizationName: null, organizations: [] }),
    handlers: { [LIST]: () => json(200, { items: [entry], totalCount: 1 }), ...extra },
  });
  uninstall = renderApp('/admin/directory').uninstall;
  return api;
}

describe('Directory entries (back office)', { timeout: 30_000 }, () => {
  it('edits an entry as pretty-printed JSON, refuses invalid JSON, and says when the update failed', async () => {
    const { calls } = start({ 'PUT /api/kno2directory': () => json(400, { message: 'x', modelState: { organizationName: ['A name is required.'] } }) });
    const user = userEvent.setup({ delay: null });
    const row = (await screen.findByText('Cascade Wound Care', undefined, { timeout: 20_000 })).closest('tr')!;
    expect(within(row).getByText('System')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Edit Cascade Wound Care' }));
    const modal = await screen.findByRole('dialog', { name: 'Edit directory entry' });
    const editor = within(modal).getByRole<HTMLTextAreaElement>('textbox', { name: 'Directory entry (JSON)' });
    const { createdAt: _c, updatedAt: _u, ...shown } = entry;
    expect(editor.value).toBe(JSON.stringify(shown, null, 2));

    fireEvent.change(editor, { target: { value: '{ "entryType": "Organization", ' } });
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByText(text.invalidJson)).toBeTruthy();
    expect(within(modal).getByText('There are invalid fields on this page.')).toBeTruthy();

    fireEvent.change(editor, { target: { value: '{"entryType":"Organization","organizationName":""}' } });
    fireEvent.blur(editor);
    expect(editor.value).toBe('{\n  "entryType": "Organization",\n  "organizationName": ""\n}');
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(text.notUpdated)).toBeTruthy();
    expect(await within(modal).findByText('A name is required.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'PUT /api/kno2directory')?.body).toEqual({ entryType: 'Organization', organizationName: '', id: ID, tenantId: 'platform' });
  });

  it('says when a delete failed', async () => {
    start({ [`DELETE /api/kno2directory/platform/${ID}`]: () => json(500, { message: 'Server error' }) });
    const user = userEvent.setup({ delay: null });
    const row = (await screen.findByText('Cascade Wound Care', undefined, { timeout: 20_000 })).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Delete Cascade Wound Care' }));
    const modal = await screen.findByRole('dialog', { name: 'Delete directory entry' });
    await user.click(within(modal).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByText(text.notDeleted)).toBeTruthy());
  });
});
