import { useEffect, useRef } from 'react';
import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { logout } from '../../api/session.ts';
import { PublicPage } from '../../app/public-page.tsx';
import { clearRedirect } from '../../app/redirect.ts';

export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);

  useEffect(() => {
    // Once only: StrictMode runs effects twice and the second call would have no token left.
    if (started.current) return;
    started.current = true;
    void logout().then(() => {
      queryClient.clear();
      // An explicit sign-out starts the next session at the role's home, not at an old page.
      clearRedirect();
      void navigate('/account/login', { replace: true });
    });
  }, [navigate, queryClient]);

  return (
    <PublicPage title="Signing out">
      <Center role="status" aria-label="Signing out">
        <Loader />
      </Center>
    </PublicPage>
  );
}
