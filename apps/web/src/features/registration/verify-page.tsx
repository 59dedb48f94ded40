import { useEffect, useRef } from 'react';
import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { PublicPage } from '../../app/public-page.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { useVerifyEmail } from './api.ts';
import { ResendVerification } from './resend-verification.tsx';

// /account/verify?token=: the verification mail's link (issue 14 §1). The link works once, so it is sent once per
// visit (a ref, not the effect's dependencies, guards against React running the effect twice).
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const verify = useVerifyEmail();
  const sent = useRef(false);
  const { mutate } = verify;
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  return (
    <PublicPage title="Confirm your email address">
      {verify.isSuccess ? (
        <Stack>
          <Alert color="green" variant="light">
            {verify.data.message}
          </Alert>
          <Button component={Link} to="/account/login">
            Sign in
          </Button>
        </Stack>
      ) : token && !verify.isError ? (
        <Center>
          <Stack align="center" gap="xs">
            <Loader size="sm" aria-label="Confirming" />
            <Text size="sm" c="dimmed">
              Confirming your email address…
            </Text>
          </Stack>
        </Center>
      ) : (
        <Stack>
          <Alert color={token ? 'red' : 'blue'} variant="light">
            {token ? errorDetails(verify.error).message : 'Enter the email address you registered with and we will send you a new confirmation link.'}
          </Alert>
          <ResendVerification />
          <Anchor component={Link} to="/account/login" ta="center">
            Back to sign-in
          </Anchor>
        </Stack>
      )}
    </PublicPage>
  );
}
