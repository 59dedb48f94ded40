import { useState } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router';
import { adminUserMessages, messageResponse, setPasswordRequest } from '@clinicrelay/contracts/admin-users.ts';
import { apiFetch } from '../../api/client.ts';
import { PublicPage } from '../../app/public-page.tsx';
import { errorDetails } from '../../components/error-details.ts';

// /account/password?token=: the page the account-creation and password-reset mails link to (not in the spec;
// issue 14 adds the strength meter and the public "forgot password" request).
export function SetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(token ? null : adminUserMessages.linkInvalid);
  const form = useForm({ initialValues: { token, password: '', confirmPassword: '' }, validate: schemaResolver(setPasswordRequest, { sync: true }) });

  const submit = async (values: typeof form.values) => {
    setError(null);
    try {
      setDone((await apiFetch('/api/account/password', { method: 'POST', body: values, schema: messageResponse, auth: false })).message);
    } catch (failure) {
      setError(errorDetails(failure).message);
    }
  };

  return (
    <PublicPage title="Choose your password">
      {done ? (
        <Stack>
          <Alert color="green">{done}</Alert>
          <Anchor component={Link} to="/account/login" ta="center">
            Sign in
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack>
            {error && <Alert color="red">{error}</Alert>}
            <Text size="sm">Use 8 to 128 characters.</Text>
            <PasswordInput label="Password" required autoComplete="new-password" {...form.getInputProps('password')} />
            <PasswordInput label="Confirm password" required autoComplete="new-password" {...form.getInputProps('confirmPassword')} />
            <Button type="submit" loading={form.submitting} disabled={!token}>
              Set password
            </Button>
          </Stack>
        </form>
      )}
    </PublicPage>
  );
}
