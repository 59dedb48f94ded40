import { useState } from 'react';
import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { registrationMessages } from '@clinicrelay/contracts/registration.ts';
import { PublicPage } from '../../app/public-page.tsx';
import { useRegistrationInvitation, useRegistrationReseller } from './api.ts';
import { RegistrationForm } from './registration-form.tsx';
import { ResellerBanner } from './reseller-banner.tsx';
import { ResendVerification } from './resend-verification.tsx';

// /account/register (an invitation mail adds ?invitation=<code>) and /register/{urlCode}, a reseller's link (issue 14 §1).
export function RegisterPage() {
  const urlCode = useParams()['*']?.split('/')[0]?.trim() || null;
  const [params] = useSearchParams();
  const invitationCode = params.get('invitation')?.trim() || null;
  const reseller = useRegistrationReseller(urlCode ?? undefined);
  const invitation = useRegistrationInvitation(invitationCode);
  const [registered, setRegistered] = useState<string | null>(null);

  if (registered) {
    return (
      <PublicPage title={registrationMessages.checkEmail}>
        <Alert color="green" variant="light">
          {registrationMessages.registered}
        </Alert>
        <Text size="sm" ta="center">
          We sent it to <strong>{registered}</strong>. Open the link in it, then sign in.
        </Text>
        <ResendVerification email={registered} />
        <Anchor component={Link} to="/account/login" ta="center">
          Back to sign-in
        </Anchor>
      </PublicPage>
    );
  }

  return (
    <PublicPage title="Register your organization">
      {urlCode && reseller.isPending && <Loader size="sm" mx="auto" aria-label="Loading" />}
      {reseller.data && <ResellerBanner reseller={reseller.data} />}
      {/* An unknown reseller code: the visitor may still register, without the reseller. */}
      {reseller.isError && (
        <Alert color="yellow" variant="light">
          {registrationMessages.resellerNotFound}
        </Alert>
      )}
      {invitation.data && (
        <Text size="sm" ta="center">
          <strong>{invitation.data.invitedBy}</strong> invited you. Register your organization to exchange documents with them.
        </Text>
      )}
      {invitation.isError && (
        <Alert color="yellow" variant="light">
          {registrationMessages.invitationNotFound}
        </Alert>
      )}
      {reseller.data?.registrationText && (
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
          {reseller.data.registrationText}
        </Text>
      )}
      {!(urlCode && reseller.isPending) && (
        <RegistrationForm
          urlCode={reseller.data ? urlCode : null}
          invitation={invitationCode && !invitation.isError ? { code: invitationCode, prefill: invitation.data } : null}
          onRegistered={setRegistered}
        />
      )}
      <Stack gap={4} align="center">
        <Text size="sm">
          Already registered?{' '}
          <Anchor component={Link} to="/account/login">
            Sign in
          </Anchor>
        </Text>
        <Anchor component={Link} to="/account/verify" size="sm">
          Didn’t get the confirmation email?
        </Anchor>
      </Stack>
    </PublicPage>
  );
}
