import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { CurrentUser } from '@clinicrelay/contracts/session.ts';
import { useCurrentUser, useSendCode, useVerifyCode } from '../../api/two-factor.ts';
import { CenteredLoader } from '../../app/centered-loader.tsx';
import { usePageTitle } from '../../app/page-title.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';
import { TwoFactorEnrolment } from './two-factor-enrolment.tsx';

/**
 * /settings/security (issue 14 §6; the path is not in the spec), from the user menu: the user's own two-factor sign-in,
 * its status, turning it on (app or email) and off (after a code: POST /api/users/{id}/verifycode with disable).
 */
export function SecurityPage() {
  usePageTitle('Security');
  const user = useCurrentUser();
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>Security</Title>
      <Paper withBorder p="md" component="section" aria-label="Two-factor sign-in">
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={2} size="h4">
              Two-factor sign-in
            </Title>
            {user.data && <Badge color={user.data.twoFactorEnabled ? 'teal' : 'gray'}>{user.data.twoFactorEnabled ? 'On' : 'Off'}</Badge>}
          </Group>
          {user.isPending && <CenteredLoader label="Loading" />}
          {user.error && <Alert color="red">{errorDetails(user.error).message}</Alert>}
          {user.data && (user.data.twoFactorEnabled ? <TurnOff user={user.data} /> : <Off userName={user.data.userName} />)}
        </Stack>
      </Paper>
    </Stack>
  );
}

function Off({ userName }: { userName: string }) {
  return (
    <Stack gap="sm">
      <Text size="sm">Two-factor sign-in asks for a code besides your password, so a stolen password alone cannot open your account.</Text>
      <TwoFactorEnrolment userName={userName} />
    </Stack>
  );
}

function TurnOff({ user }: { user: CurrentUser }) {
  const [code, setCode] = useState('');
  const verify = useVerifyCode(user.id);
  const send = useSendCode();
  const failure = verify.error ? errorDetails(verify.error) : null;
  const byEmail = !user.tokenAuthEnabled;
  return (
    <Stack gap="sm">
      <Text size="sm">{byEmail ? 'Each sign-in mails a verification code to your email address.' : 'Each sign-in asks for the code of your authenticator app.'}</Text>
      <Text size="sm" c="dimmed">
        To turn two-factor sign-in off, enter a {byEmail ? 'code mailed to you' : 'code from your app'} or one of your recovery codes.
      </Text>
      {byEmail && (
        <Group>
          <Button variant="default" loading={send.isPending} onClick={() => send.mutate(undefined, { onSuccess: ({ message }) => notifySuccess(message) })}>
            Send a code
          </Button>
          {send.error && <Text size="sm" c="red">{errorDetails(send.error).message}</Text>}
        </Group>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          verify.mutate({ code: code.trim(), disable: true }, { onSuccess: ({ message }) => notifySuccess(message) });
        }}
      >
        <Group align="flex-start" gap="sm">
          <TextInput label="Verification code" autoComplete="one-time-code" maxLength={16} value={code} onChange={(e) => setCode(e.currentTarget.value)} error={failure?.modelState.code?.[0] ?? failure?.message} w={220} />
          <Button type="submit" color="red" variant="light" loading={verify.isPending} mt={25}>
            Turn off
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
