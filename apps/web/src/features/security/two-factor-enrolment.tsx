import { useState } from 'react';
import { Alert, Button, Code, Group, Image, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { TwoFactorEnabled } from '@clinicrelay/contracts/two-factor.ts';
import { useConfirmTokenAuth, useEnableEmailCodes, useFinishEnrolment, useSendCode, useStartTokenAuth } from '../../api/two-factor.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';
import { RecoveryCodes } from './recovery-codes.tsx';

type Method = 'App' | 'Email';

/**
 * Turning two-factor sign-in on (issue 14 §6): with an authenticator app (QR code, the secret once, a code to
 * confirm) or with codes by email; then the recovery codes, shown once. Used by /settings/security and by the
 * enrolment administrators cannot skip.
 */
export function TwoFactorEnrolment({ userName, onFinished }: { userName: string; onFinished?: () => void }) {
  const [method, setMethod] = useState<Method>('App');
  const [enabled, setEnabled] = useState<TwoFactorEnabled | null>(null);
  const finish = useFinishEnrolment();

  if (enabled) {
    return (
      <Stack gap="sm">
        <Alert color="teal">{enabled.message}</Alert>
        <RecoveryCodes
          codes={enabled.recoveryCodes}
          userName={userName}
          onDone={() => {
            void finish();
            onFinished?.();
          }}
        />
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <SegmentedControl
        aria-label="Two-factor method"
        value={method}
        onChange={(value) => setMethod(value)}
        data={[
          { value: 'App', label: 'Authenticator app' },
          { value: 'Email', label: 'Codes by email' },
        ]}
      />
      {method === 'App' ? <AppSetup onEnabled={setEnabled} /> : <EmailSetup onEnabled={setEnabled} />}
    </Stack>
  );
}

function CodeForm({ label, submitLabel, pending, error, onSubmit }: { label: string; submitLabel: string; pending: boolean; error: unknown; onSubmit: (code: string) => void }) {
  const [code, setCode] = useState('');
  const failure = error ? errorDetails(error) : null;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(code.trim());
      }}
    >
      <Group align="flex-start" gap="sm">
        <TextInput label={label} autoComplete="one-time-code" inputMode="numeric" maxLength={16} value={code} onChange={(e) => setCode(e.currentTarget.value)} error={failure?.modelState.code?.[0] ?? failure?.message} w={220} />
        <Button type="submit" loading={pending} mt={25}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}

function AppSetup({ onEnabled }: { onEnabled: (result: TwoFactorEnabled) => void }) {
  const start = useStartTokenAuth();
  const confirm = useConfirmTokenAuth();
  const setup = start.data;
  if (!setup) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm">Use an authenticator app such as Google Authenticator, Microsoft Authenticator or 1Password. Each sign-in then asks for the 6-digit code it shows.</Text>
        {start.error && <Alert color="red">{errorDetails(start.error).message}</Alert>}
        <Button onClick={() => start.mutate()} loading={start.isPending}>
          Set up an authenticator app
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <Text size="sm">1. Scan this QR code with your authenticator app.</Text>
      <Image src={setup.qrCode} alt="QR code for your authenticator app" w={180} h={180} fit="contain" />
      <Text size="sm">
        Or type this key into the app (it is shown only now): <Code aria-label="Secret key">{setup.secret}</Code>
      </Text>
      <Text size="sm">2. Enter the 6-digit code the app shows.</Text>
      <CodeForm label="Verification code" submitLabel="Turn on" pending={confirm.isPending} error={confirm.error} onSubmit={(code) => confirm.mutate(code, { onSuccess: onEnabled })} />
    </Stack>
  );
}

function EmailSetup({ onEnabled }: { onEnabled: (result: TwoFactorEnabled) => void }) {
  const send = useSendCode();
  const enable = useEnableEmailCodes();
  return (
    <Stack gap="sm">
      <Text size="sm">Each sign-in mails a 6-digit code to your email address. It expires in 10 minutes.</Text>
      {send.error && <Alert color="red">{errorDetails(send.error).message}</Alert>}
      <Group>
        <Button variant={send.isSuccess ? 'default' : 'filled'} loading={send.isPending} onClick={() => send.mutate(undefined, { onSuccess: ({ message }) => notifySuccess(message) })}>
          {send.isSuccess ? 'Send the code again' : 'Send a code'}
        </Button>
      </Group>
      {send.isSuccess && <CodeForm label="Verification code" submitLabel="Turn on" pending={enable.isPending} error={enable.error} onSubmit={(code) => enable.mutate(code, { onSuccess: onEnabled })} />}
    </Stack>
  );
}
