import { useState } from 'react';
import { Alert, Avatar, Box, Button, Center, Divider, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { answerConsent, fetchConsent } from '../../api/client-applications.ts';
import { CenteredLoader } from '../../app/centered-loader.tsx';
import { usePageTitle } from '../../app/page-title.ts';
import { errorDetails } from '../../components/error-details.ts';

/**
 * /consent/:uid: the OAuth consent screen (issue 29 §1), shown to the signed-in user when a client application asks
 * for access: the application's logo and name, what it may do, and as whom (user and organization). Allow or Deny
 * sends the browser back to the authorization server, which returns to the application.
 */
export function ConsentPage() {
  const { uid = '' } = useParams();
  usePageTitle('Authorize application');
  const details = useQuery({ queryKey: ['oauth', 'consent', uid], queryFn: ({ signal }) => fetchConsent(uid, signal), retry: false, staleTime: Infinity });
  const [leaving, setLeaving] = useState(false);
  const answer = useMutation({
    mutationFn: (allow: boolean) => answerConsent(uid, allow),
    onSuccess: ({ redirectTo }) => {
      setLeaving(true);
      window.location.assign(redirectTo);
    },
  });

  let content;
  if (details.isLoading) content = <CenteredLoader />;
  else if (!details.data) content = <Alert color="red">{errorDetails(details.error).message}</Alert>;
  else {
    const d = details.data;
    content = (
      <Stack gap="lg">
        <Stack align="center" gap="xs">
          <Avatar src={d.logoUrl} alt={`${d.clientName} logo`} size={64} radius="md" color="teal">
            {d.clientName.slice(0, 1).toUpperCase()}
          </Avatar>
          <Title order={1} fz="h3" ta="center" style={{ overflowWrap: 'anywhere' }}>
            {d.clientName} wants to access your ClinicRelay account
          </Title>
          <Text size="sm" c="dimmed" ta="center" style={{ overflowWrap: 'anywhere' }}>
            {d.applicationUrl}
          </Text>
        </Stack>
        <Box>
          <Text size="sm">
            Signed in as <b>{d.userName}</b>
            {d.organizationName ? (
              <>
                {' '}
                in <b>{d.organizationName}</b>
              </>
            ) : null}
          </Text>
        </Box>
        <Divider />
        <Box>
          <Text fw={600} mb="xs">
            This will allow {d.clientName} to:
          </Text>
          <List spacing="xs" icon={<ThemeIcon size={20} radius="xl" color="teal" aria-hidden="true">✓</ThemeIcon>}>
            {d.scopes.map((s) => (
              <List.Item key={s.scope}>
                <Text size="sm">{s.description}</Text>
              </List.Item>
            ))}
          </List>
        </Box>
        <Text size="xs" c="dimmed">
          The application acts as you, with your permissions in this organization. You can stop it at any time by asking your administrator to remove it.
        </Text>
        {answer.error && <Alert color="red">{errorDetails(answer.error).message}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => answer.mutate(false)} disabled={answer.isPending || leaving}>
            Deny
          </Button>
          <Button onClick={() => answer.mutate(true)} loading={answer.isPending || leaving}>
            Allow
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={480}>
        <Stack gap="md">
          <Text fw={700} fz={22} c="teal.8" ta="center">
            ClinicRelay
          </Text>
          {content}
        </Stack>
      </Paper>
    </Center>
  );
}
