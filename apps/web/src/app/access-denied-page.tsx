import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PublicPage } from './public-page.tsx';

export function AccessDeniedPage() {
  return (
    <PublicPage title="Access denied">
      <Text ta="center">Your sign-in was not allowed to access ClinicRelay.</Text>
      <Anchor component={Link} to="/account/login" ta="center">
        Back to sign-in
      </Anchor>
    </PublicPage>
  );
}
