import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { hasSession } from '../api/tokens.ts';
import { PublicPage } from './public-page.tsx';

// No external sign-in is configured yet, so there is nothing to complete here.
export function CallbackPage() {
  const signedIn = hasSession();
  return (
    <PublicPage title="Sign-in callback">
      <Text ta="center">There is no sign-in in progress to complete.</Text>
      <Anchor component={Link} to={signedIn ? '/' : '/account/login'} ta="center">
        {signedIn ? 'Go to your home page' : 'Go to sign-in'}
      </Anchor>
    </PublicPage>
  );
}
