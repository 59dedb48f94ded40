import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PublicPage } from '../../app/public-page.tsx';

export function RegisterPage() {
  return (
    <PublicPage title="Registration">
      <Text ta="center">Self-registration opens with the onboarding feature.</Text>
      <Anchor component={Link} to="/account/login" ta="center">
        Back to sign-in
      </Anchor>
    </PublicPage>
  );
}
