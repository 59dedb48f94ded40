import { Anchor, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { PublicPage } from '../../app/public-page.tsx';

// No identity provider connections exist yet; say so rather than pretend to sign in.
export function SsoLoginPage() {
  const { connection = '' } = useParams();
  return (
    <PublicPage title="Single sign-on">
      <Text ta="center">Single sign-on for “{connection}” is not configured yet.</Text>
      <Anchor component={Link} to="/account/login" ta="center">
        Back to sign-in
      </Anchor>
    </PublicPage>
  );
}
