import { TextInput } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { EntityModal } from './entity-modal.tsx';

const networkSchema = z.object({
  name: z.string().min(1, 'Name is required.').max(100),
  domain: z.string().max(100),
});
type Network = z.infer<typeof networkSchema>;

function renderModal(entity: Network & { id?: string }, onSubmit: (values: Network) => Promise<unknown>, onClose = vi.fn()) {
  renderWithProviders(
    <EntityModal opened onClose={onClose} entityName="Network" entity={entity} schema={networkSchema} onSubmit={onSubmit}>
      {(form) => (
        <>
          <TextInput label="Name" {...form.getInputProps('name')} />
          <TextInput label="Domain" {...form.getInputProps('domain')} />
        </>
      )}
    </EntityModal>,
  );
  return onClose;
}

/** The error text Mantine shows under an input, found through the input's aria-describedby. */
function errorUnder(label: string) {
  const input = screen.getByLabelText(label);
  expect(input.getAttribute('aria-invalid')).toBe('true');
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('EntityModal', () => {
  it('is titled "Add" for a new entity and saves the typed values', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const onClose = renderModal({ name: '', domain: '' }, onSubmit);
    expect(screen.getByRole('dialog', { name: 'Add Network' })).toBeTruthy();

    await user.type(screen.getByLabelText('Name'), 'Lakeside');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Lakeside', domain: '' });
  });

  it('is titled "Edit" for an entity with an id and starts from its values', () => {
    renderModal({ id: 'n1', name: 'Riverview', domain: 'riverview.example' }, vi.fn());
    expect(screen.getByRole('dialog', { name: 'Edit Network' })).toBeTruthy();
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'Riverview');
  });

  it('shows the schema message under a field and does not submit', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderModal({ name: '', domain: '' }, onSubmit);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(errorUnder('Name')).toContain('Name is required.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('puts server modelState errors under their fields and the message in an alert, staying open', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockRejectedValue({
      message: 'The request is invalid.',
      modelState: { domain: ['Domain is already in use.'], other: ['Something else is wrong.'] },
    });
    const onClose = renderModal({ id: 'n1', name: 'Riverview', domain: 'taken.example' }, onSubmit);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The request is invalid.');
    expect(alert.textContent).toContain('Something else is wrong.');
    expect(errorUnder('Domain')).toContain('Domain is already in use.');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Save' }).getAttribute('data-loading')).toBeNull();
  });
});
