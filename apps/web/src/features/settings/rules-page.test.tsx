import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { json, renderApp, signIn, stubApi } from '../../app/app-test-harness.tsx';
import { adminProfile, DIRECT, FAX, ORG_ID, sourcesPath } from './settings-test-fixtures.ts';

let uninstall: (() => void) | undefined;
afterEach(() => uninstall?.());

const SAMPLE = { id: '7b2c3d4e-5f60-4a71-8b92-a3b4c5d6e7f8', name: 'To Records (Sample)', toAddresses: ['intake@lakeside.direct.example.org'], fromAddress: null, sourceType: null, isGlobal: false };
const LABS = { id: '8c3d4e5f-6071-4b82-9ca3-b4c5d6e7f809', name: 'Labs from Riverview', toAddresses: [], fromAddress: 'lab@riverview.direct.example.org', sourceType: 'Direct', isGlobal: false };
const LEO = { id: 'u-3', userName: 'user@lakeside.example.org', firstName: 'Leo', lastName: 'Shore', fullName: 'Leo Shore', roles: ['User'] };

function start(rules: unknown[] = [SAMPLE, LABS]) {
  signIn();
  let listed = rules;
  const api = stubApi({
    profile: adminProfile(),
    handlers: {
      'GET /api/intakerules': () => json(200, listed),
      'POST /api/intakerules': (body) => {
        const created = { id: 'r-new', toAddresses: [], fromAddress: null, sourceType: null, isGlobal: false, ...(body as object) };
        listed = [...listed, created];
        return json(200, created);
      },
      [`PUT /api/intakerules/${LABS.id}`]: (body) => {
        const changed = { ...LABS, ...(body as object) };
        listed = listed.map((r) => ((r as { id: string }).id === LABS.id ? changed : r));
        return json(200, changed);
      },
      [`DELETE /api/intakerules/${LABS.id}`]: () => {
        listed = listed.filter((r) => (r as { id: string }).id !== LABS.id);
        return json(200, { message: intakeMessages.intakeRuleDeleted });
      },
      [`GET ${sourcesPath(100)}`]: () => json(200, { items: [FAX, DIRECT], totalCount: 2 }),
      'GET /api/users?page=1&pageSize=100': () => json(200, { items: [LEO], totalCount: 1 }),
      'GET /api/users/u-3/documentsources': () => json(200, [{ organizationId: ORG_ID, documentSourceId: DIRECT.id }]),
      'GET /api/users/u-3/rules': () => json(200, [SAMPLE]),
      'PUT /api/users/u-3/documentsources': (body) => json(200, body),
      'PUT /api/users/u-3/intakerules': (body) => json(200, body),
    },
  });
  uninstall = renderApp('/settings/rules').uninstall;
  return api;
}

describe('Intake rules (/settings/rules)', () => {
  it("lists the organization's rules: name, external From, the address it applies to, source type", async () => {
    start();
    expect(await screen.findByRole('heading', { name: 'Intake rules', level: 1 })).toBeTruthy();
    const sample = (await screen.findByText('To Records (Sample)')).closest('tr')!;
    expect(within(sample).getByText('intake@lakeside.direct.example.org')).toBeTruthy();
    expect(within(sample).getByText('Any sender')).toBeTruthy();
    const labs = screen.getByText('Labs from Riverview').closest('tr')!;
    expect(within(labs).getByText('lab@riverview.direct.example.org')).toBeTruthy();
    expect(within(labs).getByText("Any of the organization's addresses")).toBeTruthy();
    expect(within(labs).getByText('Chosen users')).toBeTruthy();
  });

  it('says so when there are none', async () => {
    start([]);
    expect(await screen.findByText('Your organization has no intake rules yet.')).toBeTruthy();
  });

  it('adds a rule, asking for a To, a From or a source type first', async () => {
    const { calls } = start();
    fireEvent.click(await screen.findByRole('button', { name: 'Add rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add intake rule' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Name/ }), { target: { value: 'Faxes from St. Mary' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A rule needs a To address, a From address or a source type.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/intakerules')).toBe(false);

    fireEvent.change(within(dialog).getByRole('textbox', { name: /From \(external\)/ }), { target: { value: '5035550999' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The intake rule was saved.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/intakerules')?.body).toEqual({ name: 'Faxes from St. Mary', fromAddress: '5035550999', toAddresses: [], sourceType: null, isGlobal: false });
    expect(await screen.findByText('Faxes from St. Mary')).toBeTruthy();
  });

  it('edits and deletes a rule', async () => {
    const { calls } = start();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Labs from Riverview' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit intake rule' });
    const name = within(dialog).getByRole<HTMLInputElement>('textbox', { name: /Name/ });
    expect(name.value).toBe('Labs from Riverview');
    fireEvent.change(name, { target: { value: 'Lab results' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Lab results')).toBeTruthy();
    expect(calls.find((c) => c.key === `PUT /api/intakerules/${LABS.id}`)?.body).toMatchObject({ name: 'Lab results', fromAddress: 'lab@riverview.direct.example.org', sourceType: 'Direct' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete Lab results' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete intake rule' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(intakeMessages.intakeRuleDeleted)).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Lab results')).toBeNull());
  });

  it("opens a user's send permissions and intake rules from the user picker; Add all ticks every one, Save puts both", async () => {
    const { calls } = start();
    const user = userEvent.setup({ delay: null });
    const picker = await screen.findByRole('combobox', { name: 'User' });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Permissions and rules' }).disabled).toBe(true);
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Leo Shore (user@lakeside.example.org)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Permissions and rules' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leo Shore: permissions and rules' });
    const direct = await within(dialog).findByRole<HTMLInputElement>('checkbox', { name: /intake@lakeside\.direct\.example\.org/ });
    expect(direct.checked).toBe(true);
    expect(within(dialog).getByRole<HTMLInputElement>('checkbox', { name: /503-555-0101/ }).checked).toBe(false);
    expect(within(dialog).getByRole<HTMLInputElement>('checkbox', { name: 'To Records (Sample)' }).checked).toBe(true);
    expect(within(dialog).getByRole<HTMLInputElement>('checkbox', { name: 'Labs from Riverview' }).checked).toBe(false);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add all: Send permissions' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add all: Intake rules' }));
    expect(within(dialog).getByRole<HTMLInputElement>('checkbox', { name: /503-555-0101/ }).checked).toBe(true);
    expect(within(dialog).getByRole<HTMLInputElement>('checkbox', { name: 'Labs from Riverview' }).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'To Records (Sample)' }));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The send permissions and intake rules were saved.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'PUT /api/users/u-3/documentsources')?.body).toEqual([
      { organizationId: ORG_ID, documentSourceId: DIRECT.id },
      { organizationId: ORG_ID, documentSourceId: FAX.id },
    ]);
    expect(calls.find((c) => c.key === 'PUT /api/users/u-3/intakerules')?.body).toEqual([{ organizationId: ORG_ID, intakeRuleId: LABS.id }]);
  });
});
