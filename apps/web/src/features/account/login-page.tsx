import { useEffect, useState } from 'react';
import { Alert, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
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

export function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [codeRequired, setCodeRequired] = useState(false);
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
        setNotice({ message: error.message, tone: 'info' });
        return;
      }
      setNotice({ message: error instanceof ApiError ? error.message : messages.serverError, tone: 'error' });
    },
  });

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
              inputMode="numeric"
              {...form.getInputProps('code')}
            />
          )}
          <Group gap="xs" wrap="nowrap">
            <Button type="submit" flex={1} loading={signIn.isPending}>
              Log in
            </Button>
            <LockoutHint />
          </Group>
        </Stack>
      </form>
    </PublicPage>
  );
}
