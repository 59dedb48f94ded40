import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router';
import { adminUserMessages, messageResponse, setPasswordRequest } from '@clinicrelay/contracts/admin-users.ts';
import { apiFetch } from '../../api/client.ts';
import { PublicPage } from '../../app/public-page.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { NewPasswordFields } from '../../components/password-field.tsx';

// /account/password?token=: the page the account-creation and password-reset mails link to (not in the spec),
// with the strength meter and the password policy of issue 14 §5 (the server names the user-name rule's refusal).
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
      const { message, modelState } = errorDetails(failure);
      // A refused password shows under its field; a used or expired link above the form.
      if (modelState.password) form.setFieldError('password', modelState.password[0]);
      else setError(message);
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
            {error === adminUserMessages.linkInvalid && (
              // A used or expired reset link: the user can ask for a new one without their administrator.
              <Anchor component={Link} to="/account/forgot-password" size="sm" ta="center">
                Request a new password reset link
              </Anchor>
            )}
            <Text size="sm">Use 8 to 128 characters; spaces and any letters work. A common password or one containing your user name is refused.</Text>
            <NewPasswordFields form={form} paths={['password', 'confirmPassword']} />
            <Button type="submit" loading={form.submitting} disabled={!token}>
              Set password
            </Button>
          </Stack>
        </form>
      )}
    </PublicPage>
  );
}
