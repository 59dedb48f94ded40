import { Anchor, Text } from '@mantine/core';
import { Link, useRouteError } from 'react-router';
import { messages } from '@clinicrelay/contracts/errors.ts';
import { PublicPage } from './public-page.tsx';

/** Shown when a page throws while rendering, instead of the router's developer screen. */
export function RouteErrorPage() {
  const error = useRouteError();
  console.error(error);
  return (
    <PublicPage title="Something went wrong">
      <Text ta="center">{messages.serverError}</Text>
      <Anchor component={Link} to="/" ta="center" reloadDocument>
        Go to your home page
      </Anchor>
    </PublicPage>
  );
}
