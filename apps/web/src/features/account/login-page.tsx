import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
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

  // Three fields without @mantine/form, which would be a tenth of the sign-in page's first load.
  const [values, setValues] = useState<LoginValues>({ userName: '', password: '', code: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof LoginValues, string>>>({});
  const field = (name: keyof LoginValues) => ({
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
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
    setValues((current) => ({ ...current, code: '' }));
    signIn.mutate({ userName: values.userName.trim(), password: values.password });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The contract's own rules and wording, the first message of each field.
    const checked = loginRequest.safeParse(values);
    if (!checked.success) {
      const found: Partial<Record<keyof LoginValues, string>> = {};
      for (const issue of checked.error.issues) found[issue.path[0] as keyof LoginValues] ??= issue.message;
      setErrors(found);
      return;
    }
    setNotice(null);
    const code = values.code.trim();
    signIn.mutate({
      userName: values.userName.trim(),
      password: values.password,
      ...(codeRequired && code !== '' ? { code } : {}),
    });
  };

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
            {...field('userName')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            // Mantine's default label contains "password", which makes the field ambiguous for label lookups.
            visibilityToggleButtonProps={{ 'aria-label': 'Show or hide characters' }}
            {...field('password')}
          />
          {codeRequired && (
            <TextInput
              label="Verification code"
              autoComplete="one-time-code"
              description={codeMethod === 'Email' ? 'Enter the 6-digit code we emailed you, or a recovery code.' : 'Enter the 6-digit code of your authenticator app, or a recovery code.'}
              {...field('code')}
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
