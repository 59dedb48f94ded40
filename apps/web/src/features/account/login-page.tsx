import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { loginRequest, type LoginRequest } from '@clinicrelay/contracts/account.ts';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { ApiError } from '../../api/client.ts';
import { login } from '../../api/session.ts';
import { PublicPage } from '../../app/public-page.tsx';
import { consumeRedirect } from '../../app/redirect.ts';
import { LockoutHint } from './lockout-hint.tsx';

interface LoginValues {
  userName: string;
  password: string;
  code: string;
}

interface ServerNotice {
  message: string;
  tone: 'error' | 'info';
}

// The first answer asks for the code; a wrong code keeps the server's text.
function codeNotice(message: string, method: 'App' | 'Email' | undefined, askedBefore: boolean) {
  if (askedBefore) return message;
  return method === 'Email' ? `${message} We sent it to your email address.` : message;
}

export function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [codeRequired, setCodeRequired] = useState(false);
  // Issue 14 §6: 'Email' when the code was mailed (the page offers to send it again), 'App' for an authenticator app.
  const [codeMethod, setCodeMethod] = useState<'App' | 'Email' | undefined>(undefined);
  const [notice, setNotice] = useState<ServerNotice | null>(null);

  // Mounted only once the signed-in pages are gone, so no query refetches: nothing of the last session stays.
  useEffect(() => {
    queryClient.clear();
  }, [queryClient]);

  const form = useForm<LoginValues>({
    initialValues: { userName: '', password: '', code: '' },
    validate: schemaResolver(loginRequest, { sync: true }),
  });

  const signIn = useMutation({
    mutationFn: (request: LoginRequest) => login(request),
    onSuccess: () => {
      void navigate(consumeRedirect() ?? '/', { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.twoFactorRequired) {
        setCodeRequired(true);
        setCodeMethod(error.twoFactorMethod);
        setNotice({ message: codeNotice(error.message, error.twoFactorMethod, codeRequired), tone: 'info' });
        return;
      }
      setNotice({ message: error instanceof ApiError ? error.message : messages.serverError, tone: 'error' });
    },
  });

  // Signing in again without a code mails a new one (at most one a minute, the server decides).
  const resend = () => {
    setNotice(null);
    form.setFieldValue('code', '');
    signIn.mutate({ userName: form.values.userName.trim(), password: form.values.password });
  };

  const submit = form.onSubmit((values) => {
    setNotice(null);
    const code = values.code.trim();
    signIn.mutate({
      userName: values.userName.trim(),
      password: values.password,
      ...(codeRequired && code !== '' ? { code } : {}),
    });
  });

  return (
    <PublicPage title="Sign in">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {notice && (
            <Alert color={notice.tone === 'error' ? 'red' : 'blue'} variant="light">
              {notice.message}
            </Alert>
          )}
          <TextInput
            label="Username"
            autoComplete="username"
            autoFocus
            {...form.getInputProps('userName')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            // Mantine's default label contains "password", which makes the field ambiguous for label lookups.
            visibilityToggleButtonProps={{ 'aria-label': 'Show or hide characters' }}
            {...form.getInputProps('password')}
          />
          {codeRequired && (
            <TextInput
              label="Verification code"
              autoComplete="one-time-code"
              description={codeMethod === 'Email' ? 'Enter the 6-digit code we emailed you, or a recovery code.' : 'Enter the 6-digit code of your authenticator app, or a recovery code.'}
              {...form.getInputProps('code')}
            />
          )}
          {codeRequired && codeMethod === 'Email' && (
            <Button variant="subtle" size="compact-sm" onClick={resend} disabled={signIn.isPending} style={{ alignSelf: 'flex-start' }}>
              Send the code again
            </Button>
          )}
          <Group gap="xs" wrap="nowrap">
            <Button type="submit" flex={1} loading={signIn.isPending}>
              Log in
            </Button>
            <LockoutHint />
          </Group>
          {/* Issue 14 §5: the forgotten-password request (features/account/forgot-password-page.tsx). */}
          <Anchor component={Link} to="/account/forgot-password" size="sm" ta="center">
            Forgot your password?
          </Anchor>
          {/* A new clinic finds self sign-up here (features/registration), as the registration page links back. */}
          <Text size="sm" ta="center">
            No account yet?{' '}
            <Anchor component={Link} to="/account/register">
              Register your organization
            </Anchor>
          </Text>
        </Stack>
      </form>
    </PublicPage>
  );
}
