import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import userEvent from '@testing-library/user-event';
import { passwordMessages } from '@clinicrelay/contracts/passwords.ts';
import { renderWithProviders } from '../test/render-with-providers.tsx';
import { PasswordField } from './password-field.tsx';

function Field({ userName, error }: { userName?: string; error?: string }) {
  const [value, setValue] = useState('');
  return <PasswordField label="New password" userName={userName} error={error} value={value} onChange={(e) => setValue(e.currentTarget.value)} />;
}

const meter = () => screen.getByRole('progressbar', { name: 'Strength of the password' });

describe('PasswordField', () => {
  it('shows no meter while empty, then the strength and the policy’s message as the user types', async () => {
    renderWithProviders(<Field userName="dana.reed@lakeside.example.org" />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    const user = userEvent.setup();
    const input = screen.getByLabelText('New password');
    await user.type(input, 'qwertyuiop');
    await waitFor(() => expect(meter().getAttribute('aria-valuetext')).toBe('Very weak'));
    expect(screen.getByText(`Strength: Very weak — ${passwordMessages.tooCommon}`)).toBeTruthy();
    expect(document.getElementById(input.getAttribute('aria-describedby')!)!.contains(meter())).toBe(true);

    await user.clear(input);
    await user.type(input, 'Xq-dana.reed-Lantern');
    expect(await screen.findByText(new RegExp(passwordMessages.containsUserName.replace('.', '\\.')))).toBeTruthy();

    await user.clear(input);
    await user.type(input, 'Granite-Harbor-Lantern-62');
    await waitFor(() => expect(meter().getAttribute('aria-valuetext')).toBe('Strong'));
    expect(screen.getByText('Strength: Strong')).toBeTruthy();
  });

  it('lets the form’s own error speak instead of repeating the policy', async () => {
    renderWithProviders(<Field error="This password is too common. Choose another one." />);
    await userEvent.setup().type(screen.getByLabelText('New password'), 'sunshine');
    await waitFor(() => expect(meter().getAttribute('aria-valuetext')).toBe('Very weak'));
    expect(screen.getAllByText(/too common/)).toHaveLength(1);
  });
});
