import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { PublicPage } from './public-page.tsx';

export function UnauthorizedPage() {
  return (
    <PublicPage title="Unauthorized">
      <Text ta="center">{messages.notAuthorized}</Text>
      {/* "/" resolves to the role's default route, or to sign-in without a session. */}
      <Anchor component={Link} to="/" ta="center">
        Go to your home page
      </Anchor>
    </PublicPage>
  );
}
