import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { Link } from 'react-router';
import { forgotPasswordRequest, type ForgotPasswordRequest } from '@clinicrelay/contracts/passwords.ts';
import { useRequestPasswordReset } from '../../api/passwords.ts';
import { PublicPage } from '../../app/public-page.tsx';
import { errorDetails } from '../../components/error-details.ts';

/**
 * /account/forgot-password (issue 14 §5; the path is not in the spec): asks for the account's email and answers the
 * same whether or not it exists; the mail's link (one hour, once) opens /account/password.
 */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<ForgotPasswordRequest>({ initialValues: { userName: '' }, validate: schemaResolver(forgotPasswordRequest, { sync: true }) });
  const submit = (values: ForgotPasswordRequest) => request.mutate(values, { onSuccess: ({ message }) => setSent(message) });

  return (
    <PublicPage title="Reset your password">
      {sent ? (
        <Stack>
          <Alert color="teal" role="status">
            {sent}
          </Alert>
          <Anchor component={Link} to="/account/login" ta="center">
            Back to sign in
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack>
            <Text size="sm">Enter the email address you sign in with. We will send you a link to choose a new password.</Text>
            {request.error && <Alert color="red">{errorDetails(request.error).message}</Alert>}
            <TextInput label="Email" type="email" required autoComplete="username" {...form.getInputProps('userName')} />
            <Button type="submit" loading={request.isPending}>
              Send reset link
            </Button>
            <Anchor component={Link} to="/account/login" ta="center" size="sm">
              Back to sign in
            </Anchor>
          </Stack>
        </form>
      )}
    </PublicPage>
  );
}
