import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { errorDetails } from '../../components/error-details.ts';
import { useResendVerification } from './api.ts';

interface ResendVerificationProps {
  /** The address just registered; without it the visitor types one. */
  email?: string;
}

/** "Didn't get the email?": asks for a new verification link; the answer is the same whether or not the account exists. */
export function ResendVerification({ email }: ResendVerificationProps) {
  const [typed, setTyped] = useState('');
  const resend = useResendVerification();
  const address = (email ?? typed).trim();
  const send = () => {
    if (address) resend.mutate(address);
  };
  return (
    <Stack gap="xs">
      {resend.isSuccess && (
        <Alert color="blue" variant="light">
          {resend.data.message}
        </Alert>
      )}
      {resend.isError && (
        <Alert color="red" variant="light">
          {errorDetails(resend.error).message}
        </Alert>
      )}
      {email === undefined ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <Stack gap="sm">
            <TextInput label="Email address" type="email" autoComplete="email" maxLength={256} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} />
            <Button type="submit" loading={resend.isPending} disabled={!address}>
              Send a new link
            </Button>
          </Stack>
        </form>
      ) : (
        <Group gap="xs" justify="center">
          <Text size="sm" c="dimmed">
            Didn’t get the email?
          </Text>
          <Button variant="subtle" size="compact-sm" loading={resend.isPending} onClick={send}>
            Send it again
          </Button>
        </Group>
      )}
    </Stack>
  );
}
