import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PublicPage } from './public-page.tsx';

export function AuthErrorPage() {
  return (
    <PublicPage title="Sign-in error">
      <Text ta="center">An error occurred while signing you in. Please try again.</Text>
      <Anchor component={Link} to="/account/login" ta="center">
        Back to sign-in
      </Anchor>
    </PublicPage>
  );
}
